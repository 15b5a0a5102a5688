// A viewport interaction (drag, pin, cut, constraint...). The viewport forwards its input
// events to the active tool; the tool edits the document through undo commands and draws
// its own overlay (hover highlight, radius circle, selection box) with a QPainter after the
// scene is rendered. Escape or a right-click during a drag aborts it and restores what it
// changed.
#pragma once

#include <QCursor>
#include <QIcon>
#include <QObject>
#include <QString>

class QKeyEvent;
class QMouseEvent;
class QPainter;
class QWheelEvent;

namespace drape {

class Document;
class Viewport;

class Tool : public QObject {
    Q_OBJECT
public:
    Tool(QString name, QIcon icon, QObject *parent = nullptr)
        : QObject(parent), m_name(std::move(name)), m_icon(std::move(icon)) {}
    ~Tool() override = default;

    QString name() const { return m_name; }
    QIcon icon() const { return m_icon; }

    /// Called when the tool becomes active / inactive for `viewport` (which may have no document).
    virtual void activate(Viewport *viewport) { m_viewport = viewport; }
    virtual void deactivate() { m_viewport = nullptr; }

    // Input, in the viewport's logical (device-independent) coordinates. Return true when handled.
    virtual bool mousePress(QMouseEvent *) { return false; }
    virtual bool mouseMove(QMouseEvent *) { return false; }
    virtual bool mouseRelease(QMouseEvent *) { return false; }
    virtual bool wheel(QWheelEvent *) { return false; }
    virtual bool keyPress(QKeyEvent *) { return false; }
    /// The document was replaced or reset: drop any drag in progress without pushing commands.
    virtual void reset() {}

    /// Called once per rendered frame after the scene, with a painter on the viewport.
    virtual void paintOverlay(QPainter &) {}
    virtual QCursor cursor() const { return Qt::ArrowCursor; }
    virtual QString statusHint() const { return {}; }

signals:
    void statusHintChanged(const QString &hint);
    void overlayChanged(); ///< ask the viewport to repaint

protected:
    Viewport *viewport() const { return m_viewport; }

private:
    QString m_name;
    QIcon m_icon;
    Viewport *m_viewport = nullptr;
};

} // namespace drape
