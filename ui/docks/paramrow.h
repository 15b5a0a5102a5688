// One row of the parameters dock for one entry of the parameter table (core/scene/params.h):
// a label, and a slider + spin box with the unit (log-scaled for stiffness and compliance),
// a combo box for choices (solver kind) or a check box for toggles. The row only reports
// edits; the dock turns them into undo commands.
#pragma once

#include <QObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSlider;
class QWidget;

namespace drape {

struct ParamDesc;

class ParamRow : public QObject {
    Q_OBJECT
public:
    static constexpr int kSliderSteps = 1000;

    /// Adds the row's widgets to `grid` at `row` (label, editor, value).
    ParamRow(const ParamDesc &param, QGridLayout *grid, int row, QWidget *parent);

    const ParamDesc &param() const { return m_param; }
    /// Shows `value` without emitting anything (document changes, undo/redo).
    void setValue(double value);
    double value() const { return m_value; }
    void setVisible(bool visible);

    /// Slider position for a value and back (log or linear as the parameter says).
    int sliderPosition(double value) const;
    double valueAtSlider(int position) const;

    QSlider *slider() const { return m_slider; }
    QDoubleSpinBox *spinBox() const { return m_spin; }
    QComboBox *comboBox() const { return m_combo; }
    QCheckBox *checkBox() const { return m_check; }
    QLabel *label() const { return m_label; }

signals:
    /// The user changed the value (each slider step, each spin box commit).
    void valueEdited(double value);
    /// The edit gesture ended (slider released, spin box editing finished, a choice made).
    void editFinished();

private:
    void emitEdit(double value);

    const ParamDesc &m_param;
    double m_value = 0.0;
    QLabel *m_label = nullptr;
    QSlider *m_slider = nullptr;
    QDoubleSpinBox *m_spin = nullptr;
    QComboBox *m_combo = nullptr;
    QCheckBox *m_check = nullptr;
};

} // namespace drape
