// The Tools dock: which tool is active, the brush radius, the cut radius and the push
// strength shared by the tools, the pin actions (pin top edge, pin corners, unpin all) and a
// tearing on/off shortcut that pushes the same parameter command as the parameters dock. Right
// click in the dock offers the tool choice and the pin actions.
#pragma once

#include <QDockWidget>
#include <QPointer>

class QCheckBox;
class QDoubleSpinBox;
class QToolButton;

namespace drape {

class Document;
class ToolManager;

class ToolsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ToolsDock(ToolManager *tools, QWidget *parent = nullptr);

    void setDocument(Document *document);

    QDoubleSpinBox *radiusBox() const { return m_radius; }
    QDoubleSpinBox *cutRadiusBox() const { return m_cutRadius; }
    QDoubleSpinBox *pushStrengthBox() const { return m_push; }
    QCheckBox *tearingBox() const { return m_tearing; }

    /// Turns tearing on (vertex splitting) or off for every cloth, as one undo step.
    void setTearing(bool on);

private:
    void refreshTearing();

    ToolManager *m_tools;
    QPointer<Document> m_document;
    QDoubleSpinBox *m_radius = nullptr;
    QDoubleSpinBox *m_cutRadius = nullptr;
    QDoubleSpinBox *m_push = nullptr;
    QCheckBox *m_tearing = nullptr;
};

} // namespace drape
