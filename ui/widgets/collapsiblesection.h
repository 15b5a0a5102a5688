// A titled section that folds away: a flat header button with an arrow and a content widget.
#pragma once

#include <QWidget>

class QGridLayout;
class QToolButton;

namespace drape {

class CollapsibleSection : public QWidget {
    Q_OBJECT
public:
    explicit CollapsibleSection(const QString &title, QWidget *parent = nullptr);

    /// The content's grid: column 0 labels, 1 editors, 2 values.
    QGridLayout *grid() const { return m_grid; }
    QWidget *content() const { return m_content; }
    bool isExpanded() const;
    void setExpanded(bool expanded);

private:
    QToolButton *m_header;
    QWidget *m_content;
    QGridLayout *m_grid;
};

} // namespace drape
