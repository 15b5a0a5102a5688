// The pin and constraint editing dock: counts of the cloth's particles, pins and constraints
// by kind; the selected constraints' rest length, compliance, damping and tear strain (an
// edit applies to the whole selection as one undoable step, a scrubbed spin box merges into
// one); which constraint kinds the view shows and the constraint tool picks; and whether the
// constraint overlay is drawn at all (a view setting saved with the scene); and the force each
// pin holds, from the constraint tensions of the last step (sim/tension.h).
#pragma once


#include <QDockWidget>
#include <QPointer>

#include <array>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace drape {

class Document;
class ToolManager;

class ConstraintDock : public QDockWidget {
    Q_OBJECT
public:
    /// The properties of the selected constraints the dock edits.
    enum class Property { RestLength = 0, Compliance = 1, Damping = 2, TearStrain = 3 };

    explicit ConstraintDock(ToolManager *tools, QWidget *parent = nullptr);

    void setDocument(Document *document);

    /// Applies `value` to property `p` of the selected constraints (what the editors do).
    bool setProperty(Property p, double value);

    QLabel *countsLabel() const { return m_counts; }
    QLabel *selectionLabel() const { return m_selectionText; }
    QLabel *reactionsLabel() const { return m_reactions; }
    QDoubleSpinBox *restLengthBox() const { return m_restLength; }
    QLineEdit *complianceEdit() const { return m_compliance; }
    QDoubleSpinBox *dampingBox() const { return m_damping; }
    QLineEdit *tearStrainEdit() const { return m_tearStrain; }

private:
    void refresh();
    void refreshCounts();
    void refreshReactions();
    void editText(QLineEdit *edit, Property p);

    ToolManager *m_tools;
    QPointer<Document> m_document;
    QLabel *m_counts = nullptr;
    QLabel *m_reactions = nullptr;
    QLabel *m_selectionText = nullptr;
    QDoubleSpinBox *m_restLength = nullptr;
    QLineEdit *m_compliance = nullptr;
    QDoubleSpinBox *m_damping = nullptr;
    QLineEdit *m_tearStrain = nullptr;
    QPushButton *m_remove = nullptr;
    QCheckBox *m_showConstraints = nullptr;
    std::array<QCheckBox *, 4> m_kinds{};
    bool m_refreshing = false;
};

} // namespace drape
