// File ▸ Import Mesh: a mesh file (OBJ, PLY, STL, glTF/GLB, FBX, COLLADA through assimp,
// core/mesh) added to the open scene as a cloth of a chosen fabric or as a static mesh
// collider. The dialog reads the file with the chosen units and up axis and shows what the
// object will be (vertices, triangles, constraints, size in metres) before it is accepted;
// the addition is one structural undo step of the document.
#pragma once

#include "mesh/meshimport.h"
#include "mesh/meshscene.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QDialogButtonBox;

namespace drape {

class Document;

class ImportMeshDialog : public QDialog {
    Q_OBJECT
public:
    ImportMeshDialog(const QString &path, QWidget *parent = nullptr);

    QComboBox *roleBox() const { return m_role; }
    QComboBox *unitsBox() const { return m_units; }
    QComboBox *upBox() const { return m_up; }
    QComboBox *fabricBox() const { return m_fabric; }
    /// What the object will be, or why the file cannot be used.
    QString summary() const;
    bool readOk() const { return m_read.has_value() && m_read->ok(); }

    /// Adds the mesh read with the dialog's options to `document`. Returns an error (the
    /// document unchanged) or an empty string.
    QString addTo(Document &document) const;

private:
    void reread();

    QString m_path;
    QComboBox *m_role;
    QComboBox *m_units;
    QComboBox *m_up;
    QComboBox *m_fabric;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    std::optional<MeshImport> m_read;
};

} // namespace drape
