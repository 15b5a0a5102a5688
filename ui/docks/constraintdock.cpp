#include "docks/constraintdock.h"

#include "document/document.h"
#include "document/selection.h"
#include "render/viewport.h"
#include "tools/constrainttool.h"
#include "tools/toolmanager.h"
#include "sim/tension.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <optional>

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape {

namespace {

using Property = ConstraintDock::Property;

const char *kindName(ConstraintKind k)
{
    switch (k) {
    case ConstraintKind::Structural: return QT_TRANSLATE_NOOP("ConstraintDock", "Structural");
    case ConstraintKind::Shear: return QT_TRANSLATE_NOOP("ConstraintDock", "Shear");
    case ConstraintKind::Bend: return QT_TRANSLATE_NOOP("ConstraintDock", "Bend");
    case ConstraintKind::User: return QT_TRANSLATE_NOOP("ConstraintDock", "Sewn");
    }
    return "";
}

QString formatNumber(float v)
{
    if (std::isinf(v))
        return QStringLiteral("never");
    return QString::number(double(v), 'g', 6);
}

/// Parses a number as typed: "1e-7", "0.5", and "never"/"inf" for +infinity.
bool parseNumber(const QString &text, double *value)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("never") || t == QLatin1String("inf") || t == QLatin1String("infinity")) {
        *value = std::numeric_limits<double>::infinity();
        return true;
    }
    bool ok = false;
    *value = t.toDouble(&ok);
    return ok && std::isfinite(*value);
}

} // namespace

ConstraintDock::ConstraintDock(ToolManager *tools, QWidget *parent)
    : QDockWidget(tr("Pins and Constraints"), parent), m_tools(tools)
{
    setObjectName(QStringLiteral("constraintDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);

    m_counts = new QLabel(body);
    m_counts->setWordWrap(true);
    m_counts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_counts);

    auto *reactionBox = new QGroupBox(tr("Pin reactions"), body);
    auto *reactionLayout = new QVBoxLayout(reactionBox);
    m_reactions = new QLabel(reactionBox);
    m_reactions->setWordWrap(true);
    m_reactions->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reactions->setToolTip(tr("The force each pin exerts on the cloth to hold it (N), from the constraint "
                               "tensions of the last step; at rest they sum to the weight of the free cloth"));
    reactionLayout->addWidget(m_reactions);
    layout->addWidget(reactionBox);

    auto *selBox = new QGroupBox(tr("Selected constraints"), body);
    auto *form = new QFormLayout(selBox);
    m_selectionText = new QLabel(selBox);
    m_selectionText->setWordWrap(true);
    form->addRow(m_selectionText);
    m_restLength = new QDoubleSpinBox(selBox);
    m_restLength->setRange(0.0, 1000.0);
    m_restLength->setDecimals(4);
    m_restLength->setSingleStep(0.001);
    m_restLength->setSuffix(tr(" m"));
    m_restLength->setKeyboardTracking(false);
    m_restLength->setToolTip(tr("Length at which the constraint pulls no more (0 sews two particles together)"));
    form->addRow(tr("Rest length"), m_restLength);
    m_compliance = new QLineEdit(selBox);
    m_compliance->setToolTip(tr("Inverse stiffness in m/N (0 = rigid); e.g. 1e-7"));
    form->addRow(tr("Compliance (m/N)"), m_compliance);
    m_damping = new QDoubleSpinBox(selBox);
    m_damping->setRange(0.0, 1e6);
    m_damping->setDecimals(4);
    m_damping->setSingleStep(0.01);
    m_damping->setSuffix(tr(" N·s/m"));
    m_damping->setKeyboardTracking(false);
    m_damping->setToolTip(tr("Damping along the constraint"));
    form->addRow(tr("Damping"), m_damping);
    m_tearStrain = new QLineEdit(selBox);
    m_tearStrain->setToolTip(tr("Strain (stretch / rest length) at which it tears; \"never\" for no tearing"));
    form->addRow(tr("Tear strain"), m_tearStrain);
    m_remove = new QPushButton(tr("Remove Selected"), selBox);
    m_remove->setToolTip(tr("Remove the selected constraints (Delete in the view with the constraint tool)"));
    form->addRow(m_remove);
    layout->addWidget(selBox);

    auto *viewBox = new QGroupBox(tr("Show"), body);
    auto *view = new QVBoxLayout(viewBox);
    m_showConstraints = new QCheckBox(tr("Constraints in the view"), viewBox);
    view->addWidget(m_showConstraints);
    for (int k = 0; k < 4; ++k) {
        m_kinds[std::size_t(k)] = new QCheckBox(tr(kindName(ConstraintKind(k))), viewBox);
        m_kinds[std::size_t(k)]->setChecked(tools->visibleKinds() & (1u << unsigned(k)));
        m_kinds[std::size_t(k)]->setToolTip(tr("Show and pick this kind of constraint"));
        view->addWidget(m_kinds[std::size_t(k)]);
        connect(m_kinds[std::size_t(k)], &QCheckBox::toggled, this, [this, k](bool on) {
            unsigned mask = m_tools->visibleKinds();
            mask = on ? (mask | (1u << unsigned(k))) : (mask & ~(1u << unsigned(k)));
            m_tools->setVisibleKinds(mask);
        });
    }
    layout->addWidget(viewBox);
    layout->addStretch(1);
    setWidget(body);
    addMenu(body);

    connect(m_restLength, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_refreshing)
            setProperty(Property::RestLength, v);
    });
    connect(m_damping, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_refreshing)
            setProperty(Property::Damping, v);
    });
    connect(m_compliance, &QLineEdit::editingFinished, this, [this] { editText(m_compliance, Property::Compliance); });
    connect(m_tearStrain, &QLineEdit::editingFinished, this, [this] { editText(m_tearStrain, Property::TearStrain); });
    connect(m_remove, &QPushButton::clicked, this, [this] { m_tools->constraintTool()->removeSelected(); });
    connect(m_showConstraints, &QCheckBox::toggled, this, [this](bool on) {
        if (m_refreshing || !m_document || m_document->scene().view.showConstraints == on)
            return;
        m_tools->reportError(m_document->setPresentation([on](Scene &next) { next.view.showConstraints = on; },
                                                         on ? tr("Show Constraints") : tr("Hide Constraints")));
    });
    connect(tools->selection(), &Selection::changed, this, &ConstraintDock::refresh);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_reactionsStale)
            refreshReactions();
    });
    connect(tools, &ToolManager::clothsTornWhileRunning, this, &ConstraintDock::refresh);
    connect(tools, &ToolManager::visibleKindsChanged, this, [this](unsigned mask) {
        for (int k = 0; k < 4; ++k) {
            const QSignalBlocker block(m_kinds[std::size_t(k)]);
            m_kinds[std::size_t(k)]->setChecked(mask & (1u << unsigned(k)));
        }
    });
    setDocument(tools->document());
}

void ConstraintDock::addMenu(QWidget *body)
{
    m_unpinSelected = new QAction(tr("Unpin Selected Particles"), this);
    connect(m_unpinSelected, &QAction::triggered, this, [this] {
        const std::vector<std::uint32_t> pins = selectedPins();
        if (m_document && !pins.empty())
            m_tools->reportError(m_document->setKind(menuCloth(), pins, false, tr("Unpin Selected Particles")));
    });
    m_selectCloth = new QAction(tr("Select Cloth"), this);
    connect(m_selectCloth, &QAction::triggered, this, [this] { emit clothChosen(menuCloth()); });
    m_frameCloth = new QAction(tr("Frame Cloth"), this);
    connect(m_frameCloth, &QAction::triggered, this, [this] {
        if (m_tools->viewport())
            m_tools->viewport()->frameCloth(menuCloth());
    });
    body->addActions({ m_unpinSelected, m_selectCloth, m_frameCloth });
    body->setContextMenuPolicy(Qt::ActionsContextMenu);
}

int ConstraintDock::menuCloth() const
{
    const int cloth = m_tools->selection()->cloth();
    return m_document && cloth >= 0 && cloth < int(m_document->simulation().cloths.size()) ? cloth : 0;
}

std::vector<std::uint32_t> ConstraintDock::selectedPins() const
{
    const Selection *sel = m_tools->selection();
    if (!m_document || sel->cloth() < 0 || sel->cloth() >= int(m_document->simulation().cloths.size()))
        return {};
    const Cloth &cloth = m_document->simulation().cloths[std::size_t(sel->cloth())];
    std::vector<std::uint32_t> candidates = sel->particles();
    for (std::uint32_t k : sel->constraints()) {
        if (k < cloth.constraints.size())
            candidates.insert(candidates.end(), { cloth.constraints[k].a, cloth.constraints[k].b });
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::erase_if(candidates, [&](std::uint32_t i) {
        return i >= cloth.particles.size() || cloth.particles.kind[i] != ParticleKind::Static;
    });
    return candidates;
}

void ConstraintDock::refreshMenu()
{
    const bool any = m_document && !m_document->simulation().cloths.empty()
        && std::size_t(menuCloth()) < m_document->scene().cloths.size();
    const QString name = any ? QString::fromStdString(m_document->scene().cloths[std::size_t(menuCloth())].name)
                             : QString();
    const std::size_t pins = selectedPins().size();
    m_unpinSelected->setText(pins ? tr("Unpin %n Selected Particle(s)", nullptr, int(pins))
                                  : tr("Unpin Selected Particles"));
    m_unpinSelected->setEnabled(pins > 0);
    m_selectCloth->setText(any ? tr("Select Cloth “%1”").arg(name) : tr("Select Cloth"));
    m_frameCloth->setText(any ? tr("Frame Cloth “%1”").arg(name) : tr("Frame Cloth"));
    m_selectCloth->setEnabled(any);
    m_frameCloth->setEnabled(any);
}

void ConstraintDock::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        connect(document, &Document::changed, this, [this](Change what) {
            if (what & (Change::Topology | Change::Pins | Change::Parameters | Change::Cloths | Change::View))
                refresh();
        });
        connect(document, &Document::simulationReset, this, &ConstraintDock::refresh);
        connect(document, &Document::simulationStepped, this, &ConstraintDock::refreshReactions);
    }
    refresh();
}

void ConstraintDock::editText(QLineEdit *edit, Property p)
{
    if (m_refreshing)
        return;
    double value = 0.0;
    if (!parseNumber(edit->text(), &value)) {
        m_tools->reportError(tr("\"%1\" is not a number (%2).")
                                 .arg(edit->text(), p == Property::Compliance ? tr("compliance in m/N")
                                                                              : tr("tear strain, or \"never\"")));
        refresh();
        return;
    }
    setProperty(p, value);
}

bool ConstraintDock::setProperty(Property p, double value)
{
    const Selection *sel = m_tools->selection();
    if (!m_document || sel->cloth() < 0 || sel->constraints().empty())
        return false;
    const float v = float(value);
    ConstraintProps props;
    QString text;
    switch (p) {
    case Property::RestLength:
        props.restLength = v;
        text = tr("Set Rest Length");
        break;
    case Property::Compliance:
        props.compliance = v;
        text = tr("Set Compliance");
        break;
    case Property::Damping:
        props.damping = v;
        text = tr("Set Damping");
        break;
    case Property::TearStrain:
        props.tearStrain = v;
        text = tr("Set Tear Strain");
        break;
    }
    // Consecutive changes of one property of the same constraints are one step (a spin box
    // scrubbed with the mouse).
    QString key = QStringLiteral("constraints:%1:%2:").arg(sel->cloth()).arg(int(p));
    for (std::uint32_t i : sel->constraints())
        key += QString::number(i) + QLatin1Char(',');
    const QString error = m_document->changeConstraints(sel->cloth(), sel->constraints(), props, text, key);
    if (!error.isEmpty()) {
        m_tools->reportError(error);
        refresh();
        return false;
    }
    return true;
}

void ConstraintDock::refreshReactions()
{
    if (!isVisible()) { // closed, or behind another dock's tab: refreshed when shown
        m_reactionsStale = true;
        return;
    }
    m_reactionsStale = false;
    if (!m_document) {
        m_reactions->clear();
        return;
    }
    // Per cloth the total, then the pins one by one (the first few: a curtain rail has dozens).
    constexpr std::size_t kListed = 8;
    QStringList lines;
    const Simulation &sim = m_document->simulation();
    const auto &cloths = sim.cloths;
    std::vector<float> tension;
    const auto newtons = [](const Vec3 &f) {
        return tr("(%1, %2, %3) N").arg(double(f.x), 0, 'g', 4).arg(double(f.y), 0, 'g', 4).arg(double(f.z), 0, 'g', 4);
    };
    for (std::size_t ci = 0; ci < cloths.size(); ++ci) {
        const Cloth &cloth = cloths[ci];
        sim.constraintTensions(ci, tension);
        const std::vector<PinReaction> reactions = pinReactions(cloth, tension);
        if (reactions.empty())
            continue;
        Vec3 total;
        for (const PinReaction &r : reactions)
            total += r.force;
        lines << tr("<b>%1</b>: %2 pins hold %3, |F| = %4 N")
                     .arg(QString::fromStdString(cloth.name).toHtmlEscaped())
                     .arg(reactions.size())
                     .arg(newtons(total))
                     .arg(double(length(total)), 0, 'g', 4);
        for (std::size_t k = 0; k < std::min(kListed, reactions.size()); ++k)
            lines << tr("&nbsp;&nbsp;particle %1: %2").arg(reactions[k].particle).arg(newtons(reactions[k].force));
        if (reactions.size() > kListed)
            lines << tr("&nbsp;&nbsp;… %1 more").arg(reactions.size() - kListed);
    }
    m_reactions->setText(lines.isEmpty() ? tr("No pin holds a constraint.") : lines.join(QStringLiteral("<br>")));
}

void ConstraintDock::refreshCounts()
{
    if (!m_document) {
        m_counts->setText(tr("No scene."));
        return;
    }
    QStringList lines;
    const auto &cloths = m_document->simulation().cloths;
    for (std::size_t c = 0; c < cloths.size(); ++c) {
        const Cloth &cloth = cloths[c];
        std::size_t pins = 0;
        for (ParticleKind k : cloth.particles.kind)
            pins += k == ParticleKind::Static ? 1 : 0;
        std::array<std::size_t, 4> byKind{};
        for (const DistanceConstraint &dc : cloth.constraints)
            ++byKind[std::size_t(dc.kind) & 3u];
        lines << tr("<b>%1</b>: %2 particles, %3 pinned; %4 constraints (%5 structural, %6 shear, %7 bend, %8 sewn)")
                     .arg(QString::fromStdString(cloth.name).toHtmlEscaped())
                     .arg(cloth.particles.size())
                     .arg(pins)
                     .arg(cloth.constraints.size())
                     .arg(byKind[0])
                     .arg(byKind[1])
                     .arg(byKind[2])
                     .arg(byKind[3]);
    }
    m_counts->setText(lines.isEmpty() ? tr("The scene has no cloth.") : lines.join(QStringLiteral("<br>")));
}

void ConstraintDock::refresh()
{
    m_refreshing = true;
    refreshMenu();
    refreshCounts();
    refreshReactions();
    const Selection *sel = m_tools->selection();
    const bool has = m_document && sel->cloth() >= 0 && sel->cloth() < int(m_document->simulation().cloths.size())
                     && !sel->constraints().empty();
    for (QWidget *w : std::initializer_list<QWidget *>{m_restLength, m_compliance, m_damping, m_tearStrain, m_remove})
        w->setEnabled(has);
    if (!has) {
        m_selectionText->setText(tr("None. Click or box-select constraints with the constraint tool."));
        m_compliance->clear();
        m_tearStrain->clear();
    } else {
        const Cloth &cloth = m_document->simulation().cloths[std::size_t(sel->cloth())];
        std::optional<DistanceConstraint> first;
        bool mixed[4] = {false, false, false, false};
        for (std::uint32_t k : sel->constraints()) {
            if (k >= cloth.constraints.size())
                continue;
            const DistanceConstraint dc = cloth.constraints[k];
            if (!first) {
                first = dc;
                continue;
            }
            mixed[0] = mixed[0] || dc.restLength != first->restLength;
            mixed[1] = mixed[1] || dc.compliance != first->compliance;
            mixed[2] = mixed[2] || dc.damping != first->damping;
            mixed[3] = mixed[3] || dc.tearStrain != first->tearStrain;
        }
        QStringList notes;
        const char *names[4] = {QT_TR_NOOP("rest length"), QT_TR_NOOP("compliance"), QT_TR_NOOP("damping"),
                                QT_TR_NOOP("tear strain")};
        for (int i = 0; i < 4; ++i)
            if (mixed[i])
                notes << tr(names[i]);
        QString text = sel->constraints().size() == 1
                           ? tr("Constraint %1 of %2 (particles %3–%4).")
                                 .arg(sel->constraints().front())
                                 .arg(QString::fromStdString(cloth.name).toHtmlEscaped())
                                 .arg(first ? first->a : 0)
                                 .arg(first ? first->b : 0)
                           : tr("%1 constraints of %2.").arg(sel->constraints().size())
                                 .arg(QString::fromStdString(cloth.name).toHtmlEscaped());
        if (!notes.isEmpty())
            text += QLatin1Char(' ') + tr("Differing: %1 (the first one's value is shown).").arg(notes.join(QStringLiteral(", ")));
        m_selectionText->setText(text);
        if (first) {
            m_restLength->setValue(double(first->restLength));
            m_compliance->setText(formatNumber(first->compliance));
            m_damping->setValue(double(first->damping));
            m_tearStrain->setText(formatNumber(first->tearStrain));
        }
    }
    if (m_document)
        m_showConstraints->setChecked(m_document->scene().view.showConstraints);
    m_refreshing = false;
}

} // namespace drape
