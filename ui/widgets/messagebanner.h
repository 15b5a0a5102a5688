// A dismissable banner over the top of the viewport for messages too long or too important for
// the status bar: why the simulation stopped, what to change, a scene that could not be opened.
// It wraps its text to the viewport's width so nothing is cut off.
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace drape {

class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Warning, Error };

    /// Overlays `host` (the viewport) and follows its size.
    explicit MessageBanner(QWidget *host);

    void showMessage(const QString &text, Kind kind = Kind::Warning);
    QString text() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QLabel *m_label = nullptr;
    QToolButton *m_close = nullptr;
};

} // namespace drape
