// The live parameters dock: one row per entry of the parameter table (core/scene/params.h), in
// collapsible sections (World, Wind, Solver, Material, Cloth, Colliders), with selectors for
// the cloth and the collider being edited and a fabric preset chooser. Every edit is an
// undoable edit of the document applied to the running simulation at once; a slider drag is
// one undo step. Rows follow the document (undo, redo, load) without feeding back.
#pragma once

#include "document/document.h"
#include "scene/params.h"

#include <QDockWidget>
#include <QPointer>

#include <vector>

class QComboBox;
class QLabel;

namespace drape {

class CollapsibleSection;
class Document;
class ParamRow;

class ParametersDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ParametersDock(QWidget *parent = nullptr);
    /// Cuts the rows off first: a focused spin box emits editingFinished while the QWidget
    /// base destructor deletes it, which must not reach this half-destroyed dock.
    ~ParametersDock() override;

    void setDocument(Document *document);

    /// The row of parameter `key`, or null (tests drive rows through it).
    ParamRow *row(const std::string &key) const;
    int currentCloth() const { return m_cloth; }
    QComboBox *fabricSelector() const { return m_materialSelector; }
    int currentCollider() const { return m_collider; }
    void setCurrentCloth(int index);
    void setCurrentCollider(int index);
    /// "24 pinned of 576 particles" for the current cloth (the Properties' pins summary).
    QLabel *pinsSummary() const { return m_pins; }

public slots:
    /// Re-reads the user's fabric presets into the fabric chooser (after one was saved).
    void reloadFabrics();

signals:
    /// An edit was refused (a resolution change past the document's scene budget).
    void editRefused(const QString &message);
    /// The user chose a cloth / a collider in the dock's selectors (the transform gizmo follows).
    void clothChosen(int index);
    void colliderChosen(int index);

private:
    void buildSections();
    void refresh();
    void refreshSelectors();
    int indexFor(ParamGroup group) const;
    /// Before switching to the springs solver: false when the user cancels because the scene is
    /// past its stability bound.
    bool confirmSolverSwitch(double kind);
    void onRowEdited(ParamRow *row, double value);
    void onRowFinished();
    /// Reset to Default and Copy Value on the row's right-click menu.
    void addRowMenu(ParamRow *row);
    /// `value` as the row shows it, with its unit (the name of a choice, on/off).
    static QString valueText(const ParamDesc &p, double value);
    void onMaterialChosen(int presetIndex);

    QPointer<Document> m_document;
    std::vector<ParamRow *> m_rows;
    std::vector<CollapsibleSection *> m_sections;
    QComboBox *m_clothSelector = nullptr;
    QComboBox *m_materialSelector = nullptr;
    QComboBox *m_colliderSelector = nullptr;
    QLabel *m_noColliders = nullptr;
    QLabel *m_pins = nullptr;
    std::vector<Material> m_fabrics; ///< the fabric chooser's entries: built in, then the user's
    int m_cloth = 0;
    int m_collider = 0;
};

} // namespace drape
