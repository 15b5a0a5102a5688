// The pin and constraint editing dock: counts of the cloth's particles, pins and constraints
// by kind; the selected constraints' rest length, compliance, damping and tear strain (an
// edit applies to the whole selection as one undoable step, a scrubbed spin box merges into
// one); which constraint kinds the view shows and the constraint tool picks; and whether the
// constraint overlay is drawn at all (a view setting saved with the scene); and the force each
// pin holds, from the constraint tensions of the last step (sim/tension.h). Right click:
// unpin the selected particles, select the cloth in the parameters dock, frame it.
#pragma once


#include <QDockWidget>
#include <QPointer>

#include <array>
#include <cstdint>
#include <vector>

class QAction;
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
    QAction *unpinSelectedAction() const { return m_unpinSelected; }
    QAction *selectClothAction() const { return m_selectCloth; }
    QAction *frameClothAction() const { return m_frameCloth; }

signals:
    /// "Select Cloth" from the dock's menu: the cloth the parameters dock should edit.
    void clothChosen(int cloth);

private:
    void refresh();
    void refreshCounts();
    void refreshReactions();
    void editText(QLineEdit *edit, Property p);
    void addMenu(QWidget *body);
    void refreshMenu();
    /// The cloth the menu acts on: the selection's, else the first.
    int menuCloth() const;
    /// Pinned particles among the selected ones and the ends of the selected constraints.
    std::vector<std::uint32_t> selectedPins() const;

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
    QAction *m_unpinSelected = nullptr;
    QAction *m_selectCloth = nullptr;
    QAction *m_frameCloth = nullptr;
    bool m_refreshing = false;
    /// The pin reactions wait for the dock to be seen: each refresh makes the tension of every
    /// constraint (Simulation::constraintTensions), which a hidden dock need not pay each step.
    bool m_reactionsStale = false;
};

} // namespace drape
