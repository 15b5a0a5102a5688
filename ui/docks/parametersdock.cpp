#include "docks/parametersdock.h"

#include "docks/objectsummary.h"
#include "scene/userpresets.h"

#include "scene/scenebudget.h"
#include "docks/paramrow.h"
#include "document/document.h"
#include "sim/stability.h"
#include "widgets/collapsiblesection.h"
#include "widgets/wheelguard.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSlider>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace drape {

namespace {

constexpr ParamGroup kGroups[] = {ParamGroup::World, ParamGroup::Wind, ParamGroup::Solver,
                                  ParamGroup::Material, ParamGroup::Cloth, ParamGroup::Collider};

QString groupTitle(ParamGroup group)
{
    return group == ParamGroup::Collider ? QObject::tr("Colliders") : QString::fromLatin1(paramGroupName(group));
}

} // namespace

ParametersDock::ParametersDock(QWidget *parent) : QDockWidget(tr("Parameters"), parent)
{
    setObjectName(QStringLiteral("ParametersDock"));
    buildSections();
}

ParametersDock::~ParametersDock()
{
    for (ParamRow *r : m_rows)
        disconnect(r, nullptr, this, nullptr);
}

void ParametersDock::buildSections()
{
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *body = new QWidget(scroll);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);

    for (ParamGroup group : kGroups) {
        auto *section = new CollapsibleSection(groupTitle(group), body);
        m_sections.push_back(section);
        QGridLayout *grid = section->grid();
        int row = 0;
        if (group == ParamGroup::Material) {
            grid->addWidget(new QLabel(tr("Cloth"), section->content()), row, 0);
            m_clothSelector = new QComboBox(section->content());
            m_clothSelector->setToolTip(tr("The cloth whose material and properties the rows below edit"));
            grid->addWidget(m_clothSelector, row++, 1, 1, 2);
            WheelGuard::install(m_clothSelector);
            connect(m_clothSelector, &QComboBox::activated, this, [this](int index) {
                setCurrentCloth(index);
                emit clothChosen(index);
            });
            grid->addWidget(new QLabel(tr("Fabric"), section->content()), row, 0);
            m_materialSelector = new QComboBox(section->content());
            m_materialSelector->setToolTip(tr("Start from a built-in fabric; the rows below fine-tune it"));
            reloadFabrics();
            grid->addWidget(m_materialSelector, row++, 1, 1, 2);
            WheelGuard::install(m_materialSelector);
            connect(m_materialSelector, &QComboBox::activated, this, &ParametersDock::onMaterialChosen);
            grid->addWidget(new QLabel(tr("Pins"), section->content()), row, 0);
            m_pins = new QLabel(section->content());
            m_pins->setObjectName(QStringLiteral("pinsSummary"));
            m_pins->setToolTip(tr("Pin or unpin particles with the Pin tool or the viewport's right-click menu"));
            grid->addWidget(m_pins, row++, 1, 1, 2);
        } else if (group == ParamGroup::Collider) {
            grid->addWidget(new QLabel(tr("Collider"), section->content()), row, 0);
            m_colliderSelector = new QComboBox(section->content());
            grid->addWidget(m_colliderSelector, row++, 1, 1, 2);
            WheelGuard::install(m_colliderSelector);
            connect(m_colliderSelector, &QComboBox::activated, this, [this](int index) {
                setCurrentCollider(index);
                emit colliderChosen(index);
            });
            m_noColliders = new QLabel(tr("This scene has no colliders."), section->content());
            m_noColliders->setEnabled(false);
            grid->addWidget(m_noColliders, row++, 0, 1, 3);
        }
        for (const ParamDesc &param : sceneParams()) {
            if (param.group != group)
                continue;
            auto *r = new ParamRow(param, grid, row++, section->content());
            m_rows.push_back(r);
            connect(r, &ParamRow::valueEdited, this, [this, r](double v) { onRowEdited(r, v); });
            connect(r, &ParamRow::editFinished, this, &ParametersDock::onRowFinished);
            addRowMenu(r);
        }
        layout->addWidget(section);
    }
    layout->addStretch(1);
    scroll->setWidget(body);
    setWidget(scroll);
    setEnabled(false);
}

void ParametersDock::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_cloth = 0;
    m_collider = 0;
    setEnabled(m_document != nullptr);
    if (m_document) {
        connect(m_document, &Document::simulationReset, this, &ParametersDock::refresh);
        connect(m_document, &Document::changed, this, [this](Change what) {
            if (what & (Change::Parameters | Change::Colliders | Change::Cloths | Change::Topology | Change::Pins))
                refresh();
        });
    }
    refresh();
}

ParamRow *ParametersDock::row(const std::string &key) const
{
    for (ParamRow *r : m_rows) {
        if (r->param().key == key)
            return r;
    }
    return nullptr;
}

void ParametersDock::setCurrentCloth(int index)
{
    m_cloth = index;
    refresh();
}

void ParametersDock::setCurrentCollider(int index)
{
    m_collider = index;
    refresh();
}

int ParametersDock::indexFor(ParamGroup group) const
{
    if (group == ParamGroup::Material || group == ParamGroup::Cloth)
        return m_cloth;
    if (group == ParamGroup::Collider)
        return m_collider;
    return 0;
}

void ParametersDock::refreshSelectors()
{
    const Scene *scene = m_document ? &m_document->scene() : nullptr;
    const int cloths = scene ? int(scene->cloths.size()) : 0;
    const int colliders = scene ? int(scene->colliders.size()) : 0;
    m_cloth = std::clamp(m_cloth, 0, std::max(cloths - 1, 0));
    m_collider = std::clamp(m_collider, 0, std::max(colliders - 1, 0));

    const QSignalBlocker b1(m_clothSelector), b2(m_colliderSelector), b3(m_materialSelector);
    m_clothSelector->clear();
    for (int i = 0; i < cloths; ++i)
        m_clothSelector->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(scene->cloths[std::size_t(i)].name)));
    m_clothSelector->setCurrentIndex(m_cloth);
    m_clothSelector->setEnabled(cloths > 1);
    m_colliderSelector->clear();
    for (int i = 0; i < colliders; ++i)
        m_colliderSelector->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(scene->colliders[std::size_t(i)].name)));
    m_colliderSelector->setCurrentIndex(m_collider);
    m_colliderSelector->setVisible(colliders > 0);
    m_noColliders->setVisible(colliders == 0);

    // The fabric chooser shows the preset the material came from (by name), or nothing once edited.
    int preset = -1;
    if (cloths > 0) {
        const Material &current = scene->cloths[std::size_t(m_cloth)].material;
        for (std::size_t i = 0; i < m_fabrics.size(); ++i) {
            if (m_fabrics[i] == current)
                preset = int(i);
        }
    }
    m_materialSelector->setCurrentIndex(preset >= 0 ? preset : m_materialSelector->count() - 1);
    m_materialSelector->setEnabled(cloths > 0);
    const Simulation *sim = m_document ? &m_document->simulation() : nullptr;
    m_pins->setText(sim && std::size_t(m_cloth) < sim->cloths.size() ? pinsText(sim->cloths[std::size_t(m_cloth)])
                                                                     : QString());
}

namespace {

/// Rows that only one kind of solver reads are shown only for it: the spring integrator for
/// springs, constraint iterations for the position-based solvers (springs have none).
bool appliesToSolver(const ParamDesc &p, SolverKind kind)
{
    if (p.key == "solver.integrator")
        return kind == SolverKind::Springs;
    if (p.key == "solver.iterations")
        return kind != SolverKind::Springs;
    return true;
}

} // namespace

void ParametersDock::refresh()
{
    refreshSelectors();
    if (!m_document)
        return;
    // The values in force at the playhead: the scene's, changed by the take's parameter events.
    const Scene &scene = m_document->settings();
    for (ParamRow *r : m_rows) {
        const ParamDesc &p = r->param();
        const int index = indexFor(p.group);
        bool exists = true;
        if (p.group == ParamGroup::Material || p.group == ParamGroup::Cloth)
            exists = index < int(scene.cloths.size());
        else if (p.group == ParamGroup::Collider)
            exists = index < int(scene.colliders.size());
        const bool visible = exists && p.applies(scene, index) && appliesToSolver(p, scene.solver.kind);
        r->setVisible(visible);
        if (visible)
            r->setValue(p.get(scene, index));
    }
}

bool ParametersDock::confirmSolverSwitch(double kind)
{
    if (SolverKind(int(kind)) != SolverKind::Springs
        || m_document->scene().solver.kind == SolverKind::Springs)
        return true;
    // The springs solver integrates explicitly: ask before a switch whose first step would blow
    // up, with the bound's own advice (which particle, which limit, how many substeps).
    Scene candidate = m_document->scene();
    candidate.solver.kind = SolverKind::Springs;
    const std::string problem = springsStabilityProblem(buildSimulation(candidate));
    if (problem.empty())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Switch to the springs solver?"),
        tr("The springs solver cannot hold this scene's stiffness at %n substep(s) per frame: "
           "the first step would stop the simulation.",
            nullptr, candidate.solver.substeps),
        QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("SpringsStabilityWarning"));
    box.setInformativeText(QString::fromStdString(problem) + QLatin1Char('.'));
    box.addButton(tr("Switch Anyway"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() != QMessageBox::Cancel;
}

void ParametersDock::onRowEdited(ParamRow *row, double value)
{
    if (!m_document)
        return;
    const ParamDesc &p = row->param();
    if (p.key == "solver.kind" && !confirmSolverSwitch(value)) {
        refresh(); // the combo goes back to the current solver
        return;
    }
    if (p.needsRebuild) {
        // A resolution change (grid across/down, rope count) is held to the scene budget, as
        // an opened file is: a 1024 × 1024 grid would take gigabytes and seconds per frame.
        Scene trial = m_document->scene();
        p.set(trial, indexFor(p.group), value);
        const std::string over = checkBudget(sceneTotals(trial), m_document->budget());
        if (!over.empty()) {
            const QSignalBlocker block(row);
            row->setValue(p.get(m_document->scene(), indexFor(p.group)));
            emit editRefused(tr("%1 not changed: %2").arg(QString::fromStdString(p.label), QString::fromStdString(over)));
            return;
        }
    }
    const QString error = m_document->setParameter(p.key, indexFor(p.group), value, true);
    if (!error.isEmpty()) {
        emit editRefused(tr("%1 not changed: %2").arg(QString::fromStdString(p.label), error));
        refresh();
    }
}

QString ParametersDock::valueText(const ParamDesc &p, double value)
{
    if (!p.enumNames.empty())
        return QString::fromStdString(p.enumNames.at(std::size_t(std::clamp<long>(std::lround(value), 0L,
            long(p.enumNames.size()) - 1))));
    if (p.toggle)
        return value != 0.0 ? tr("on") : tr("off");
    const QString number = QString::number(value, 'g', 7);
    return p.unit.empty() ? number : number + QLatin1Char(' ') + QString::fromStdString(p.unit);
}

void ParametersDock::addRowMenu(ParamRow *row)
{
    // Right click on the row's label, slider, choice or check box (the spin box keeps its own
    // text-editing menu). Reset goes through the same path as an edit: one undo step, and the
    // row's own rules (a resolution change waits for Reset) apply.
    const ParamDesc &p = row->param();
    auto *reset = new QAction(tr("Reset to Default (%1)").arg(valueText(p, p.defaultValue)), row);
    reset->setObjectName(QStringLiteral("ResetToDefault"));
    connect(reset, &QAction::triggered, this, [this, row] {
        onRowEdited(row, row->param().defaultValue);
        onRowFinished();
    });
    auto *copy = new QAction(tr("Copy Value"), row);
    copy->setObjectName(QStringLiteral("CopyValue"));
    connect(copy, &QAction::triggered, this, [row] {
        QGuiApplication::clipboard()->setText(valueText(row->param(), row->value()));
    });
    for (QWidget *w : std::initializer_list<QWidget *>{
             row->label(), row->slider(), row->comboBox(), row->checkBox() }) {
        if (!w)
            continue;
        w->addActions({ reset, copy });
        w->setContextMenuPolicy(Qt::ActionsContextMenu);
    }
}

void ParametersDock::onRowFinished()
{
    if (!m_document)
        return;
    m_document->closeMerging(); // the next change is a new undo step
}

void ParametersDock::reloadFabrics()
{
    m_fabrics = materialPresets();
    const QSignalBlocker block(m_materialSelector);
    m_materialSelector->clear();
    for (const Material &m : m_fabrics) {
        QString name = QString::fromStdString(m.name);
        name[0] = name[0].toUpper();
        m_materialSelector->addItem(name);
    }
    // The user's fabrics (core/scene/userpresets.h) follow, named by their preset id.
    for (const UserPreset &u : userPresetList()) {
        Material m;
        std::string error;
        if (u.kind != UserPresetKind::Fabric || u.shadowed || !loadFabricPreset(u.id, m, &error))
            continue;
        m.name = u.id;
        m_fabrics.push_back(m);
        m_materialSelector->addItem(tr("%1 (mine)").arg(QString::fromStdString(u.id)));
    }
    // "Custom" is a real entry (placeholder text is drawn greyed, as if disabled) that
    // the user cannot pick: it only says the material was edited away from a preset.
    m_materialSelector->addItem(tr("Custom"));
    if (auto *model = qobject_cast<QStandardItemModel *>(m_materialSelector->model()))
        model->item(m_materialSelector->count() - 1)->setFlags(Qt::ItemIsEnabled);
    if (m_pins)
        refreshSelectors();
}

void ParametersDock::onMaterialChosen(int presetIndex)
{
    if (!m_document || presetIndex < 0 || std::size_t(presetIndex) >= m_fabrics.size()
        || m_cloth >= int(m_document->scene().cloths.size()))
        return;
    const QString error = m_document->setMaterial(m_cloth, m_fabrics[std::size_t(presetIndex)]);
    if (!error.isEmpty())
        emit editRefused(error);
}

} // namespace drape
