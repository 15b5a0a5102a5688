#include "docks/toolsdock.h"

#include "document/document.h"
#include "scene/params.h"
#include "tools/toolmanager.h"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

namespace drape {

namespace {

QToolButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *b = new QToolButton(parent);
    b->setDefaultAction(action);
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    return b;
}

} // namespace

ToolsDock::ToolsDock(ToolManager *tools, QWidget *parent) : QDockWidget(tr("Tools"), parent), m_tools(tools)
{
    setObjectName(QStringLiteral("toolsDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);

    auto *toolBox = new QGroupBox(tr("Tool"), body);
    auto *grid = new QGridLayout(toolBox);
    const QList<QAction *> actions = tools->actionGroup()->actions();
    for (int i = 0; i < actions.size(); ++i)
        grid->addWidget(buttonFor(actions[i], toolBox), i / 2, i % 2);
    layout->addWidget(toolBox);

    auto *brushBox = new QGroupBox(tr("Brush"), body);
    auto *form = new QFormLayout(brushBox);
    m_radius = new QDoubleSpinBox(brushBox);
    m_radius->setRange(ToolManager::kMinRadius * 100.0, ToolManager::kMaxRadius * 100.0);
    m_radius->setDecimals(1);
    m_radius->setSingleStep(0.5);
    m_radius->setSuffix(tr(" cm"));
    m_radius->setValue(tools->radius() * 100.0);
    m_radius->setToolTip(tr("Radius of the drag, push and pin brush (Ctrl+wheel in the view)"));
    form->addRow(tr("Radius"), m_radius);
    m_cutRadius = new QDoubleSpinBox(brushBox);
    m_cutRadius->setRange(0.0, ToolManager::kMaxRadius * 100.0);
    m_cutRadius->setDecimals(1);
    m_cutRadius->setSingleStep(0.5);
    m_cutRadius->setSuffix(tr(" cm"));
    m_cutRadius->setValue(tools->cutRadius() * 100.0);
    m_cutRadius->setToolTip(tr("Extra width of the knife: constraints this close to the stroke are cut too"));
    form->addRow(tr("Cut radius"), m_cutRadius);
    m_push = new QDoubleSpinBox(brushBox);
    m_push->setRange(0.0, 4.0);
    m_push->setDecimals(2);
    m_push->setSingleStep(0.1);
    m_push->setValue(tools->pushStrength());
    m_push->setToolTip(tr("How much of the mouse's motion the push tool gives the cloth"));
    form->addRow(tr("Push strength"), m_push);
    layout->addWidget(brushBox);

    auto *pinBox = new QGroupBox(tr("Pins"), body);
    auto *pins = new QVBoxLayout(pinBox);
    pins->addWidget(buttonFor(tools->pinTopEdgeAction(), pinBox));
    pins->addWidget(buttonFor(tools->pinCornersAction(), pinBox));
    pins->addWidget(buttonFor(tools->unpinAllAction(), pinBox));
    layout->addWidget(pinBox);

    m_tearing = new QCheckBox(tr("Tearing"), body);
    m_tearing->setToolTip(tr("Let every cloth tear past its tear strain (the Tearing parameter of each cloth)"));
    layout->addWidget(m_tearing);
    layout->addStretch(1);
    setWidget(body);
    // Right click anywhere in the dock: the tool choice and the pin actions, as in the Tools menu.
    body->addActions(tools->actionGroup()->actions());
    auto *separator = new QAction(body);
    separator->setSeparator(true);
    body->addActions({ separator, tools->pinTopEdgeAction(), tools->pinCornersAction(), tools->unpinAllAction() });
    body->setContextMenuPolicy(Qt::ActionsContextMenu);

    connect(m_radius, &QDoubleSpinBox::valueChanged, this, [this](double cm) { m_tools->setRadius(float(cm / 100.0)); });
    connect(m_cutRadius, &QDoubleSpinBox::valueChanged, this,
            [this](double cm) { m_tools->setCutRadius(float(cm / 100.0)); });
    connect(m_push, &QDoubleSpinBox::valueChanged, this, [this](double f) { m_tools->setPushStrength(float(f)); });
    connect(tools, &ToolManager::radiusChanged, this, [this](float m) {
        const QSignalBlocker block(m_radius);
        m_radius->setValue(m * 100.0);
    });
    connect(tools, &ToolManager::cutRadiusChanged, this, [this](float m) {
        const QSignalBlocker block(m_cutRadius);
        m_cutRadius->setValue(m * 100.0);
    });
    connect(tools, &ToolManager::pushStrengthChanged, this, [this](float f) {
        const QSignalBlocker block(m_push);
        m_push->setValue(f);
    });
    connect(m_tearing, &QCheckBox::toggled, this, &ToolsDock::setTearing);
    setDocument(tools->document());
}

void ToolsDock::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        connect(document, &Document::changed, this, [this](Change what) {
            if (what & (Change::Parameters | Change::Cloths))
                refreshTearing();
        });
    }
    refreshTearing();
}

void ToolsDock::refreshTearing()
{
    const QSignalBlocker block(m_tearing);
    bool any = false;
    if (m_document)
        for (const ClothDesc &c : m_document->settings().cloths)
            any = any || c.tearMode != TearMode::None;
    m_tearing->setChecked(any);
    m_tearing->setEnabled(m_document && !m_document->scene().cloths.empty());
}

void ToolsDock::setTearing(bool on)
{
    const ParamDesc *param = findParam("cloth.tearMode");
    if (!m_document || !param)
        return;
    // One step for all cloths.
    const double value = double(on ? TearMode::SplitVertex : TearMode::None);
    m_document->beginGesture();
    QString error;
    for (std::size_t i = 0; i < m_document->settings().cloths.size() && error.isEmpty(); ++i)
        if ((m_document->settings().cloths[i].tearMode != TearMode::None) != on)
            error = m_document->setParameter(param->key, int(i), value);
    if (error.isEmpty())
        m_document->endGesture(on ? tr("Tearing On") : tr("Tearing Off"));
    else
        m_document->cancelGesture();
    refreshTearing();
}

} // namespace drape
