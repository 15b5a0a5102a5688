#include "actions/viewactions.h"

#include "document/document.h"
#include "appsettings.h"
#include "mainwindow.h"
#include "render/fabrictexture.h"
#include "render/viewport.h"
#include "widgets/messagebanner.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QInputDialog>
#include <QMenu>
#include <QSignalBlocker>

namespace drape {

namespace {

/// `look` in `view`; the older "checker" shading becomes plain smooth shading with it.
void setFabricLook(ViewSettings &view, FabricLook look)
{
    if (view.shading == Shading::Checker)
        view.shading = Shading::Smooth;
    view.fabric = look;
}

} // namespace

ViewActions::ViewActions(MainWindow *window)
    : QObject(window), m_window(window), m_shading(new QActionGroup(this)), m_fabric(new QActionGroup(this)),
      m_fullScreen(new QAction(tr("&Full Screen"), this)),
      m_resetLayout(new QAction(tr("Reset &Layout"), this))
{
    const struct { Shading shading; const char *text; const char *key; } shadings[] = {
        {Shading::Smooth, QT_TR_NOOP("&Smooth Shading"), "1"},
        {Shading::Flat, QT_TR_NOOP("&Flat Shading"), "2"}};
    for (const auto &s : shadings) {
        QAction *action = m_shading->addAction(tr(s.text));
        action->setCheckable(true);
        action->setShortcut(QKeySequence(QString::fromLatin1(s.key)));
        const Shading shading = s.shading;
        connect(action, &QAction::triggered, this, [this, shading, action] {
            edit(action->text().remove(QLatin1Char('&')), [shading](ViewSettings &v) {
                v.fabric = fabricLookOf(v); // the older "checker" shading keeps its pattern
                v.shading = shading;
            });
        });
    }
    addFabricLook();

    m_wireframe = addToggle(tr("&Wireframe"), QKeySequence(QStringLiteral("W")), &ViewSettings::wireframe);
    m_particles = addToggle(tr("&Particles"), QKeySequence(QStringLiteral("Shift+P")), &ViewSettings::showParticles);
    m_constraints = addToggle(tr("&Constraints"), QKeySequence(QStringLiteral("Shift+C")), &ViewSettings::showConstraints);
    m_strain = addToggle(tr("&Strain Heat Map"), QKeySequence(QStringLiteral("H")), &ViewSettings::showStrain);
    // The stress map is a way of looking, like the constraint kinds shown, not part of the scene.
    m_stress = new QAction(tr("S&tress Heat Map (N/m)"), this);
    m_stress->setCheckable(true);
    m_stress->setShortcut(QKeySequence(QStringLiteral("Shift+H")));
    connect(m_stress, &QAction::toggled, this, [this](bool on) { m_window->viewport()->setShowStress(on); });
    m_pins = addToggle(tr("Pi&ns"), {}, &ViewSettings::showPins);
    m_ground = addToggle(tr("&Ground Grid"), {}, &ViewSettings::showGround);

    const char *kinds[] = {QT_TR_NOOP("Structural"), QT_TR_NOOP("Shear"), QT_TR_NOOP("Bend"), QT_TR_NOOP("User (Sewn)")};
    for (unsigned k = 0; k < 4; ++k) {
        QAction *action = new QAction(tr(kinds[k]), this);
        action->setCheckable(true);
        action->setChecked(true);
        connect(action, &QAction::toggled, this, [this, k](bool on) {
            Viewport *vp = m_window->viewport();
            const unsigned mask = on ? (vp->constraintKinds() | (1u << k)) : (vp->constraintKinds() & ~(1u << k));
            vp->setConstraintKinds(mask);
        });
        m_kindActions << action;
    }

    const struct { CameraView view; const char *text; const char *key; } views[] = {
        {CameraView::Front, QT_TR_NOOP("&Front View"), "Ctrl+1"},
        {CameraView::Side, QT_TR_NOOP("&Side View"), "Ctrl+3"},
        {CameraView::Top, QT_TR_NOOP("&Top View"), "Ctrl+7"}};
    for (const auto &v : views) {
        QAction *action = new QAction(tr(v.text), this);
        action->setShortcut(QKeySequence(QString::fromLatin1(v.key)));
        const CameraView view = v.view;
        connect(action, &QAction::triggered, this, [this, view] {
            m_window->viewport()->setView(view);
            m_window->viewport()->frameAll();
        });
        m_cameraActions << action;
    }
    QAction *frameAll = new QAction(tr("Frame &All"), this);
    frameAll->setShortcut(QKeySequence(QStringLiteral("F")));
    connect(frameAll, &QAction::triggered, this, [this] { m_window->viewport()->frameAll(); });
    m_cameraActions << frameAll;

    // QKeySequence::FullScreen is empty on several desktops: F11 is the fallback.
    const QList<QKeySequence> fullKeys = QKeySequence::keyBindings(QKeySequence::FullScreen);
    m_fullScreen->setShortcuts(fullKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::Key_F11)} : fullKeys);
    m_fullScreen->setCheckable(true);
    connect(m_fullScreen, &QAction::toggled, this, [this](bool on) {
        if (on)
            m_window->showFullScreen();
        else
            m_window->showNormal();
    });
    connect(m_resetLayout, &QAction::triggered, m_window, &MainWindow::resetLayout);

    connect(m_window, &MainWindow::documentChanged, this, &ViewActions::setDocument);
}

QAction *ViewActions::addToggle(const QString &text, const QKeySequence &key, bool ViewSettings::*field)
{
    auto *action = new QAction(text, this);
    action->setCheckable(true);
    if (!key.isEmpty())
        action->setShortcut(key);
    connect(action, &QAction::triggered, this, [this, action, field](bool on) {
        edit((on ? tr("Show %1") : tr("Hide %1")).arg(action->text().remove(QLatin1Char('&'))),
             [field, on](ViewSettings &v) { v.*field = on; });
    });
    m_toggles.append({action, field});
    return action;
}

void ViewActions::populate(QMenu *menu)
{
    menu->addActions(m_shading->actions());
    QMenu *fabric = menu->addMenu(tr("F&abric Look"));
    fabric->addActions(m_fabric->actions());
    fabric->addSeparator();
    fabric->addAction(m_weaveDensity);
    menu->addSeparator();
    menu->addAction(m_wireframe);
    menu->addAction(m_particles);
    menu->addAction(m_constraints);
    QMenu *kinds = menu->addMenu(tr("Constraint &Kinds"));
    kinds->addActions(m_kindActions);
    menu->addAction(m_strain);
    menu->addAction(m_stress);
    menu->addAction(m_pins);
    menu->addAction(m_ground);
    menu->addSeparator();
    QMenu *camera = menu->addMenu(tr("&Camera"));
    camera->addActions(m_cameraActions);
    // Also reachable with the View menu closed, through the window.
    m_window->addActions(m_cameraActions);
    menu->addSeparator();
    menu->addAction(m_fullScreen);
    menu->addAction(m_resetLayout);
}

void ViewActions::addFabricLook()
{
    const struct { FabricLook look; const char *text; const char *key; } looks[] = {
        {FabricLook::None, QT_TR_NOOP("&None"), ""},
        {FabricLook::Checker, QT_TR_NOOP("&Checker"), "3"},
        {FabricLook::Weave, QT_TR_NOOP("&Weave"), "4"},
        {FabricLook::Image, QT_TR_NOOP("&Image…"), "5"}};
    for (const auto &l : looks) {
        QAction *action = m_fabric->addAction(tr(l.text));
        action->setCheckable(true);
        if (*l.key)
            action->setShortcut(QKeySequence(QString::fromLatin1(l.key)));
        const FabricLook look = l.look;
        if (look == FabricLook::Image) {
            connect(action, &QAction::triggered, this, &ViewActions::chooseFabricImage);
            continue;
        }
        connect(action, &QAction::triggered, this, [this, look, action] {
            edit(tr("Fabric Look: %1").arg(action->text().remove(QLatin1Char('&'))),
                [look](ViewSettings &v) { setFabricLook(v, look); });
        });
    }
    m_weaveDensity = new QAction(tr("Weave &Density…"), this);
    connect(m_weaveDensity, &QAction::triggered, this, &ViewActions::askWeaveDensity);
}

QList<QAction *> ViewActions::fabricActions() const { return m_fabric->actions(); }

void ViewActions::chooseFabricImage()
{
    refresh(); // the look stays as it is until an image has been read
    if (!m_document)
        return;
    QStringList patterns;
    for (const QByteArray &format : QImageReader::supportedImageFormats())
        patterns << QStringLiteral("*.") + QString::fromLatin1(format);
    const QString remembered = AppSettings::fabricImage();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Fabric Image"),
        remembered.isEmpty() ? AppSettings::lastDirectory() : QFileInfo(remembered).absolutePath(),
        tr("Images (%1)").arg(patterns.join(QLatin1Char(' '))));
    if (!path.isEmpty())
        useFabricImage(path);
}

bool ViewActions::useFabricImage(const QString &path, QString *error)
{
    QString why;
    const QImage image = loadFabricImage(path, &why);
    if (image.isNull()) {
        m_window->banner()->showMessage(
            tr("%1. The fabric look is unchanged; choose another with View ▸ Fabric Look ▸ Image….").arg(why));
        if (error)
            *error = why;
        return false;
    }
    AppSettings::setFabricImage(path);
    m_fabricImagePath = path;
    m_fabricImageTried = true;
    m_window->viewport()->setFabricImage(image);
    edit(tr("Fabric Look: Image"), [](ViewSettings &v) { setFabricLook(v, FabricLook::Image); });
    refresh();
    return true;
}

void ViewActions::loadRememberedFabricImage(const ViewSettings &view)
{
    const QString path = AppSettings::fabricImage();
    if (fabricLookOf(view) != FabricLook::Image || (m_fabricImageTried && path == m_fabricImagePath)
        || !m_window->viewport() || !m_window->banner())
        return;
    // Tried once per file: a missing one is reported once, not on every change of the view.
    m_fabricImageTried = true;
    m_fabricImagePath = path;
    QString why;
    const QImage image = loadFabricImage(path, &why);
    m_window->viewport()->setFabricImage(image);
    if (image.isNull()) {
        m_window->banner()->showMessage(
            tr("%1. The cloth is drawn in its plain colours; choose an image with View ▸ Fabric Look ▸ Image….")
                .arg(why));
    }
}

void ViewActions::askWeaveDensity()
{
    if (!m_document)
        return;
    bool ok = false;
    const double density = QInputDialog::getDouble(m_window, tr("Weave Density"),
        tr("Threads per metre, each way (real cloth: 2000–5000; finer than the screen shows):"),
        double(m_document->scene().view.weaveDensity), 1.0, 1e5, 0, &ok);
    if (ok)
        edit(tr("Weave Density"), [density](ViewSettings &v) { v.weaveDensity = float(density); });
}

void ViewActions::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document) {
        connect(m_document, &Document::changed, this, [this](Change what) {
            if (what & Change::View)
                refresh();
        });
    }
    refresh();
}

void ViewActions::refresh()
{
    const bool enabled = m_document != nullptr;
    const ViewSettings view = m_document ? m_document->scene().view : ViewSettings{};
    for (QAction *a : m_shading->actions())
        a->setEnabled(enabled);
    for (QAction *a : m_fabric->actions())
        a->setEnabled(enabled);
    m_weaveDensity->setEnabled(enabled);
    if (enabled) {
        m_shading->actions().at(view.shading == Shading::Flat ? 1 : 0)->setChecked(true);
        m_fabric->actions().at(int(fabricLookOf(view)))->setChecked(true);
        loadRememberedFabricImage(view);
    }
    for (const auto &[action, field] : m_toggles) {
        const QSignalBlocker blocker(action);
        action->setEnabled(enabled);
        action->setChecked(view.*field);
    }
}

void ViewActions::edit(const QString &text, const std::function<void(ViewSettings &)> &change)
{
    if (!m_document)
        return;
    m_document->setPresentation([change](Scene &next) { change(next.view); }, text);
}

} // namespace drape
