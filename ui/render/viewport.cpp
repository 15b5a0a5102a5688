#include "render/viewport.h"

#include "appsettings.h"
#include "document/document.h"
#include "render/renderdata.h"
#include "tools/tool.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape {

namespace {

constexpr float kOrbitDegreesPerPixel = 0.35f;
constexpr float kZoomPerWheelStep = 0.85f; ///< distance factor per 15° wheel notch

} // namespace

Viewport::Viewport(QWidget *parent) : QOpenGLWidget(parent)
{
    // Multisampling costs a software renderer a full pass per sample: choose it per system.
    QSurfaceFormat format = surfaceFormat();
    format.setSamples(samplesForSystem());
    setFormat(format);
    // Every paintGL() fills the whole framebuffer (the renderer clears it or copies its kept
    // backdrop in; without a scene it is cleared below), so Qt need not clear it before each
    // frame as well: on a desktop GL it would, a full-frame clear a software renderer pays.
    setUpdateBehavior(QOpenGLWidget::PartialUpdate);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(160, 120);
}

Viewport::~Viewport()
{
    // The context may still be alive (a viewport deleted before its window): free GL now.
    cleanup();
    // QOpenGLWidget's destructor destroys the context after this one has run; cleanup() must
    // not be called again on a half-destroyed viewport.
    if (context())
        disconnect(context(), nullptr, this, nullptr);
}

namespace {

bool isSoftwareRendererName(const QString &renderer)
{
    // Mesa's CPU rasterisers name themselves in GL_RENDERER.
    for (const char *name : { "llvmpipe", "softpipe", "swrast", "Software Rasterizer", "lavapipe" }) {
        if (renderer.contains(QLatin1String(name), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace

bool Viewport::systemRendererIsSoftware()
{
    static const bool software = [] {
        QOpenGLContext context;
        context.setFormat(surfaceFormat());
        QOffscreenSurface surface;
        surface.setFormat(context.format());
        surface.create();
        if (!context.create() || !context.makeCurrent(&surface))
            return false;
        const auto *text = reinterpret_cast<const char *>(context.functions()->glGetString(GL_RENDERER));
        const bool result = text && isSoftwareRendererName(QString::fromLatin1(text));
        context.doneCurrent();
        return result;
    }();
    return software;
}

Viewport::Quality Viewport::quality(bool software, AppSettings::SoftwareQuality quality)
{
    if (!software)
        return {};
    switch (quality) {
    case AppSettings::SoftwareQuality::Fast:
        return { 0, 0 };
    case AppSettings::SoftwareQuality::Balanced:
        return { 0, 1024 };
    case AppSettings::SoftwareQuality::Full:
        return {};
    }
    return { 0, 0 };
}

int Viewport::samplesForSystem()
{
    return quality(systemRendererIsSoftware(), AppSettings::softwareQuality()).samples;
}

QSurfaceFormat Viewport::surfaceFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    // The window's surface only shows the viewport's finished picture (Qt composes the
    // widget's framebuffer into it), so it needs no multisampling: a software renderer would
    // multisample and resolve the whole window every frame for nothing. The viewport's own
    // framebuffer takes samplesForSystem().
    format.setSamples(0);
    return format;
}

void Viewport::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_toolEventsWaiting = 0; // they waited with the document they were for
    if (m_tool)
        m_tool->reset();
    if (m_secondaryTool)
        m_secondaryTool->reset();
    if (m_document) {
        connect(m_document, &Document::changed, this, [this](Change what) { onDocumentChanged(unsigned(what)); });
        connect(m_document, &Document::simulationStepped, this, &Viewport::requestUpdate);
        connect(m_document, &Document::playheadMoved, this, &Viewport::requestUpdate);
        connect(m_document, &Document::busyChanged, this, &Viewport::onBusyChanged);
        connect(m_document, &Document::preparingChanged, this, [this](bool preparing, quint64 frame) {
            // While the state at `frame` is on its way (an undo, a settle), the frame shown is
            // that frame's when the cache holds it, else the state the document is still at,
            // never a cached frame of another time.
            if (preparing && m_cachedFrame && m_cachedFrame->frame != frame)
                showCachedFrame(m_document->timeline().cachedFrame(frame));
        });
        connect(m_document, &Document::simulationReset, this, [this] {
            m_cachedView.invalidate();
            m_renderer.invalidate();
            if (m_tool)
                m_tool->reset();
            update();
        });
        syncCameraFromDocument();
        m_fitOnResize = true;
        m_autoFramed = false;
        fitSceneIfCut();
    }
    m_cachedFrame.reset();
    m_cachedView.invalidate();
    m_renderer.invalidate();
    update();
}

void Viewport::showCachedFrame(std::shared_ptr<const CachedFrame> frame)
{
    m_cachedFrame = std::move(frame);
    if (m_cachedFrame && m_document)
        m_cachedView.show(m_document->simulation(), *m_cachedFrame);
    update();
}

const Simulation &Viewport::shownSimulation() const
{
    static const Simulation empty;
    if (!m_document)
        return empty;
    if (m_cachedFrame && !m_document->isSettled() && m_cachedView.isValid())
        return m_cachedView.simulation();
    return m_document->simulation();
}

std::uint64_t Viewport::shownFrame() const
{
    if (m_document && m_cachedFrame && !m_document->isSettled() && m_cachedView.isValid())
        return m_cachedFrame->frame;
    return m_document ? m_document->frame() : 0;
}

void Viewport::onDocumentChanged(unsigned what)
{
    if (Change(what) & (Change::Topology | Change::Cloths | Change::Colliders | Change::Pins | Change::Parameters))
        m_cachedView.invalidate();
    if (Change(what) & Change::Camera)
        syncCameraFromDocument();
    if (Change(what) & (Change::Topology | Change::Cloths))
        m_renderer.invalidate();
    update();
}

void Viewport::syncCameraFromDocument()
{
    if (m_document)
        m_camera.setDesc(m_document->camera());
}

void Viewport::cameraChanged()
{
    if (m_document)
        m_document->setCameraQuietly(m_camera.desc());
    emit cameraMoved();
    update();
}

Ray Viewport::rayAt(const QPointF &pos) const
{
    return m_camera.rayThrough(float(pos.x()), float(pos.y()), float(width()), float(height()));
}

bool Viewport::project(const Vec3 &world, QPointF *logicalPos, float *depth) const
{
    float x = 0.f, y = 0.f;
    if (!m_camera.project(world, float(width()), float(height()), &x, &y, depth))
        return false;
    if (logicalPos)
        *logicalPos = QPointF(x, y);
    return true;
}

void Viewport::setTool(Tool *tool)
{
    if (tool == m_tool)
        return;
    if (m_tool)
        m_tool->deactivate();
    m_tool = tool;
    m_pressedTool = nullptr;
    if (m_tool) {
        m_tool->activate(this);
        setCursor(m_tool->cursor());
    } else {
        unsetCursor();
    }
    update();
}

void Viewport::setConstraintKinds(unsigned mask)
{
    m_constraintKinds = mask;
    update();
}

void Viewport::setFabricImage(const QImage &image)
{
    m_fabricImage = image;
    update();
}

void Viewport::setShowStress(bool on)
{
    m_showStress = on;
    update();
}

bool Viewport::sceneBounds(Vec3 *lo, Vec3 *hi) const
{
    if (!m_document)
        return false;
    const float inf = std::numeric_limits<float>::infinity();
    *lo = { inf, inf, inf };
    *hi = { -inf, -inf, -inf };
    auto grow = [&](const Vec3 &p) {
        *lo = { std::min(lo->x, p.x), std::min(lo->y, p.y), std::min(lo->z, p.z) };
        *hi = { std::max(hi->x, p.x), std::max(hi->y, p.y), std::max(hi->z, p.z) };
    };
    const Simulation &sim = m_document->simulation();
    for (const Cloth &c : sim.cloths) {
        for (const Vec3 &p : c.particles.position) {
            if (isFinite(p))
                grow(p);
        }
    }
    for (const Collider &c : sim.colliders) {
        if (c.kind == ColliderKind::Sphere) {
            grow(c.center - Vec3{1, 1, 1} * c.radius);
            grow(c.center + Vec3{1, 1, 1} * c.radius);
        } else if (c.kind == ColliderKind::Box) {
            const Vec3 reach = c.rotation == Vec3{} ? c.halfExtents : Vec3{1, 1, 1} * length(c.halfExtents);
            grow(c.center - reach);
            grow(c.center + reach);
        } else if (c.kind == ColliderKind::Capsule) {
            const Vec3 reach = Vec3{1, 1, 1} * (std::abs(c.halfLength) + c.radius);
            grow(c.center - reach);
            grow(c.center + reach);
        } else if (c.kind == ColliderKind::Mesh && c.mesh && c.rotation != Vec3{}) {
            // Turned: the ball about the centre that holds the mesh however it is turned.
            const Aabb b = c.mesh->bounds();
            const float r = length(Vec3{std::max(std::abs(b.lo.x), std::abs(b.hi.x)),
                                        std::max(std::abs(b.lo.y), std::abs(b.hi.y)),
                                        std::max(std::abs(b.lo.z), std::abs(b.hi.z))});
            grow(c.center - Vec3{r, r, r});
            grow(c.center + Vec3{r, r, r});
        } else if (c.kind == ColliderKind::Mesh && c.mesh) {
            grow(c.center + c.mesh->bounds().lo);
            grow(c.center + c.mesh->bounds().hi);
        }
    }
    return lo->x <= hi->x;
}

void Viewport::frameAll()
{
    Vec3 lo, hi;
    if (!sceneBounds(&lo, &hi))
        return; // nothing to frame
    m_camera.frameBounds(lo, hi, float(width()) / float(std::max(height(), 1)));
    cameraChanged();
}

void Viewport::frameCloth(int cloth)
{
    if (!m_document || cloth < 0 || std::size_t(cloth) >= m_document->simulation().cloths.size())
        return;
    const float inf = std::numeric_limits<float>::infinity();
    Vec3 lo { inf, inf, inf }, hi { -inf, -inf, -inf };
    for (const Vec3 &p : m_document->simulation().cloths[std::size_t(cloth)].particles.position) {
        if (!isFinite(p))
            continue;
        lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
        hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
    }
    if (!(lo.x <= hi.x))
        return;
    m_fitOnResize = false;
    m_camera.frameBounds(lo, hi, float(width()) / float(std::max(height(), 1)));
    cameraChanged();
}

bool Viewport::isSceneInView() const
{
    Vec3 lo, hi;
    if (!sceneBounds(&lo, &hi))
        return true;
    const float w = float(width()), h = float(height());
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p { corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z };
        float x = 0.f, y = 0.f;
        if (!m_camera.project(p, w, h, &x, &y) || x < 0.f || y < 0.f || x > w || y > h)
            return false;
    }
    return true;
}

void Viewport::fitSceneIfCut()
{
    // A scene's saved camera was framed for some other window's aspect: in a narrower view it
    // would open cut off at the sides. Until the user moves the camera, every resize frames the
    // scene again if part of it would be outside the view.
    if (!m_fitOnResize || !isVisible() || width() <= 0 || height() <= 0)
        return;
    if (m_autoFramed || !isSceneInView()) {
        frameAll();
        m_autoFramed = true; // framed for this aspect: frame again for the next one
    }
}

void Viewport::setView(CameraView view)
{
    m_fitOnResize = false;
    m_camera.setView(view);
    cameraChanged();
}

void Viewport::initializeGL()
{
    // hellogl2: the context may be recreated (reparenting to full screen); free GL objects
    // while it is still current, then initialise again in the new one.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &Viewport::cleanup, Qt::UniqueConnection);
    m_glError.clear();
    QOpenGLFunctions *gl = context()->functions();
    const auto glString = [gl](GLenum name) {
        const auto *text = reinterpret_cast<const char *>(gl->glGetString(name));
        return text ? QString::fromLatin1(text) : QString();
    };
    m_glRenderer = glString(GL_RENDERER);
    m_glVersion = glString(GL_VERSION);
    m_software = isSoftwareRendererName(m_glRenderer);
    const QSurfaceFormat f = context()->format();
    if (f.majorVersion() * 10 + f.minorVersion() < 33) {
        m_glError = tr("OpenGL 3.3 core is required; this system provides %1.%2.").arg(f.majorVersion()).arg(f.minorVersion());
    } else {
        QString error;
        if (!m_renderer.initialize(&error))
            m_glError = error;
    }
    if (!m_glError.isEmpty()) {
        qWarning("drape: %s", qPrintable(m_glError));
        emit glErrorOccurred(m_glError);
    }
}

void Viewport::cleanup()
{
    if (!m_renderer.isInitialized() || !context())
        return;
    makeCurrent();
    m_renderer.release();
    doneCurrent();
}

void Viewport::resizeGL(int, int)
{
    fitSceneIfCut();
}

void Viewport::paintGL()
{
    QElapsedTimer timer;
    if (m_measureDraw)
        timer.start();
    const qreal dpr = devicePixelRatioF();
    const int w = int(std::lround(width() * dpr)), h = int(std::lround(height() * dpr));
    if (m_document && m_renderer.isInitialized()) {
        RenderOptions options;
        options.devicePixelRatio = float(dpr);
        options.constraintKinds = m_constraintKinds;
        options.fabricImage = m_fabricImage;
        if (m_showStress) {
            // The ramp tops at the largest stress now, rounded up to 1, 2 or 5 × 10ⁿ N/m.
            const Scene &scene = m_document->scene();
            const Simulation &shown = shownSimulation();
            const auto &cloths = shown.cloths;
            // The tensions are made once a paint, for the scale and for the colours.
            float worst = 0.f;
            m_stressTension.resize(std::min(cloths.size(), scene.cloths.size()));
            for (std::size_t c = 0; c < m_stressTension.size(); ++c) {
                shown.constraintTensions(c, m_stressTension[c]);
                worst = std::max(
                    worst, maxStress(cloths[c], m_stressTension[c], clothSpacing(scene.cloths[c])));
            }
            m_stressScale = niceCeiling(worst);
            options.stress = true;
            options.stressScale = m_stressScale;
            options.stressTension = &m_stressTension;
        }
        // On a software renderer the shadow map is one of the things the quality preference
        // trades (the multisampling was chosen with the context).
        options.shadowMapSize = quality(m_software, AppSettings::softwareQuality()).shadowMapSize;
        // A software renderer shades every pixel of the ground each frame; while the camera
        // stays still it copies the unshadowed ground in instead (a GPU draws it for nothing).
        options.stillBackdrop = m_software;
        m_renderer.render(m_document->scene(), shownSimulation(), m_camera, defaultFramebufferObject(), w, h,
                          options);
    } else {
        // Nothing drawn under the message: start from black (Qt keeps the last frame).
        QOpenGLFunctions *gl = context()->functions();
        gl->glClearColor(0.f, 0.f, 0.f, 1.f);
        gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    }
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    paintOverlays(painter);
    painter.end();
    if (m_measureDraw) {
        context()->functions()->glFinish(); // the draw is done, not only queued
        m_lastDrawMs = double(timer.nsecsElapsed()) * 1e-6;
    }
    emit frameRendered();
}

void Viewport::paintOverlays(QPainter &painter)
{
    if (!m_glError.isEmpty()) {
        painter.fillRect(rect(), QColor(40, 20, 20));
        painter.setPen(QColor(255, 200, 190));
        painter.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                         tr("The 3D view cannot draw:\n\n%1").arg(m_glError));
        return;
    }
    if (!m_document) {
        painter.setPen(QColor(200, 200, 200));
        painter.drawText(rect(), Qt::AlignCenter, tr("No scene open"));
        return;
    }
    if (m_showStress)
        paintLegend(painter, tr("Stress"), tr("%1 N/m").arg(double(m_stressScale), 0, 'g', 3), tr("0 N/m"));
    else if (m_document->scene().view.showStrain)
        paintStrainLegend(painter);
    if (m_tool)
        m_tool->paintOverlay(painter);
    if (m_secondaryTool && m_secondaryTool != m_tool)
        m_secondaryTool->paintOverlay(painter);
}

void Viewport::paintStrainLegend(QPainter &painter)
{
    paintLegend(painter, tr("Tear risk"), tr("at tear strain"), tr("slack"));
}

void Viewport::paintLegend(QPainter &painter, const QString &title, const QString &top, const QString &bottom)
{
    // A small panel at the top right: title, the colour ramp, and what its ends mean.
    const qreal barHeight = std::min(160.0, height() - 90.0);
    if (barHeight < 40)
        return;
    QFont font = painter.font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const qreal panelWidth = std::max(metrics.horizontalAdvance(title),
                                      std::max(metrics.horizontalAdvance(top), metrics.horizontalAdvance(bottom)) + 26.0)
                             + 20.0;
    const QRectF panel(width() - panelWidth - 12.0, 12.0, panelWidth, barHeight + metrics.height() * 2 + 20.0);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(20, 22, 26, 170));
    painter.drawRoundedRect(panel, 5, 5);

    const QRectF bar(panel.right() - 22.0, panel.top() + metrics.height() + 12.0, 12.0, barHeight);
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    // The same ramp as cloth.frag's heat().
    gradient.setColorAt(0.0, QColor::fromRgbF(0.15f, 0.30f, 0.85f));
    gradient.setColorAt(0.33, QColor::fromRgbF(0.20f, 0.75f, 0.35f));
    gradient.setColorAt(0.66, QColor::fromRgbF(0.95f, 0.85f, 0.20f));
    gradient.setColorAt(1.0, QColor::fromRgbF(0.90f, 0.15f, 0.10f));
    painter.fillRect(bar, gradient);

    painter.setPen(QColor(235, 235, 235));
    painter.drawText(QRectF(panel.left() + 8, panel.top() + 6, panel.width() - 16, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, title);
    const QRectF labels(panel.left() + 8, bar.top(), bar.left() - panel.left() - 14, bar.height());
    painter.drawText(labels, Qt::AlignRight | Qt::AlignTop, top);
    painter.drawText(labels, Qt::AlignRight | Qt::AlignBottom, bottom);
}

Viewport::Drag Viewport::cameraDragFor(const QMouseEvent *event) const
{
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    if (event->button() == Qt::MiddleButton)
        return shift ? Drag::Pan : Drag::Orbit;
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::AltModifier))
        return shift ? Drag::Pan : Drag::Orbit;
    return Drag::None;
}

bool Viewport::toolMustWait() const
{
    if (!m_document || m_replayingToolEvent)
        return false;
    return m_toolEventsWaiting > 0 || !m_document->isSettled() || m_document->isBusy();
}

template<typename Event>
void Viewport::afterWaiting(Event *event, void (Viewport::*handler)(Event *))
{
    ++m_toolEventsWaiting;
    const std::shared_ptr<Event> copy(static_cast<Event *>(event->clone()));
    QPointer<Viewport> self(this);
    m_document->whenSettled([self, copy, handler] {
        if (!self)
            return;
        --self->m_toolEventsWaiting;
        self->m_replayingToolEvent = true;
        (self.data()->*handler)(copy.get());
        self->m_replayingToolEvent = false;
    });
}

void Viewport::onBusyChanged(bool busy)
{
    // A short wait for the state the tool needs: the press is not lost, it runs when it comes.
    if (busy)
        setCursor(Qt::BusyCursor);
    else if (m_drag == Drag::None && m_tool)
        setCursor(m_tool->cursor());
    else if (m_drag == Drag::None)
        unsetCursor();
}

void Viewport::mousePressEvent(QMouseEvent *event)
{
    m_lastPos = event->position();
    if (event->button() == Qt::RightButton)
        m_rightPressPos = event->position();
    const Drag drag = cameraDragFor(event);
    if (drag != Drag::None && m_drag == Drag::None && !m_pressedTool) {
        m_drag = drag;
        setCursor(drag == Drag::Orbit ? Qt::SizeAllCursor : Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton || event->button() == Qt::RightButton) {
        // A tool picks and edits the state on screen: it waits for the document to be there.
        if (toolMustWait())
            afterWaiting(event, &Viewport::toolPress);
        else
            toolPress(event);
    }
    event->accept();
}

void Viewport::toolPress(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        m_leftClickPos.reset();
    if (m_tool && m_tool->mousePress(event)) {
        m_pressedTool = m_tool;
    } else if (event->button() == Qt::LeftButton) {
        m_leftClickPos = event->position();
    } else if (event->button() == Qt::RightButton && m_secondaryTool && m_secondaryTool->mousePress(event)) {
        m_pressedTool = m_secondaryTool;
    }
}

void Viewport::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    const QPointF delta = pos - m_lastPos;
    m_lastPos = pos;
    if (m_drag != Drag::None)
        m_fitOnResize = false; // the user has the camera now
    if (m_drag == Drag::Orbit) {
        m_camera.orbit(-float(delta.x()) * kOrbitDegreesPerPixel, float(delta.y()) * kOrbitDegreesPerPixel);
        cameraChanged();
    } else if (m_drag == Drag::Pan) {
        m_camera.pan(float(delta.x()), float(delta.y()), float(width()), float(height()));
        cameraChanged();
    } else if (m_toolEventsWaiting > 0 && !m_replayingToolEvent) {
        afterWaiting(event, &Viewport::toolMove); // after the press that waits
    } else {
        toolMove(event);
    }
    emit hoverMoved(pos);
}

void Viewport::toolMove(QMouseEvent *event)
{
    if (m_pressedTool)
        m_pressedTool->mouseMove(event);
    else if (m_tool)
        m_tool->mouseMove(event);
}

void Viewport::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_drag != Drag::None && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_drag = Drag::None;
        if (m_document && m_document->isBusy())
            setCursor(Qt::BusyCursor);
        else if (m_tool)
            setCursor(m_tool->cursor());
        else
            unsetCursor();
        return;
    }
    if (m_toolEventsWaiting > 0 && !m_replayingToolEvent)
        afterWaiting(event, &Viewport::toolRelease); // with the press that waits
    else
        toolRelease(event);
}

void Viewport::toolRelease(QMouseEvent *event)
{
    // A right press and release on the same spot is a click: the context menu. A right drag
    // cuts; the stroke a click started is aborted the way Escape aborts it, restoring what it
    // changed, so the menu never comes with a cut.
    if (event->button() == Qt::RightButton) {
        const QPointF moved = event->position() - m_rightPressPos;
        m_rightPressPos = QPointF(-1e9, -1e9);
        if (moved.manhattanLength() <= 3.0) {
            if (Tool *tool = m_pressedTool) {
                m_pressedTool = nullptr;
                QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
                tool->keyPress(&escape);
            }
            emit contextMenuRequested(event->position());
            return;
        }
    }
    if (event->button() == Qt::LeftButton && m_leftClickPos) {
        const QPointF moved = event->position() - *m_leftClickPos;
        m_leftClickPos.reset();
        if (moved.manhattanLength() <= 3.0)
            emit clicked(event->position());
    }
    if (m_pressedTool) {
        Tool *tool = m_pressedTool;
        if (event->buttons() == Qt::NoButton)
            m_pressedTool = nullptr;
        tool->mouseRelease(event);
    }
}

void Viewport::wheelEvent(QWheelEvent *event)
{
    if ((event->modifiers() & Qt::ControlModifier) && m_tool && m_tool->wheel(event))
        return;
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    const QPointF pos = event->position();
    m_camera.zoomToward(float(pos.x()), float(pos.y()), float(width()), float(height()),
                        float(std::pow(kZoomPerWheelStep, steps)));
    m_fitOnResize = false;
    cameraChanged();
    event->accept();
}

void Viewport::keyPressEvent(QKeyEvent *event)
{
    if (m_toolEventsWaiting > 0 && !m_replayingToolEvent && m_tool) {
        afterWaiting(event, &Viewport::keyPressEvent); // Escape after a press aborts that press
        return;
    }
    if (m_tool && m_tool->keyPress(event))
        return;
    if (event->key() == Qt::Key_Escape && m_drag != Drag::None) {
        m_drag = Drag::None;
        return;
    }
    if (event->key() == Qt::Key_F && event->modifiers() == Qt::NoModifier) {
        frameAll();
        return;
    }
    QOpenGLWidget::keyPressEvent(event);
}

void Viewport::leaveEvent(QEvent *event)
{
    emit hoverMoved(QPointF(-1, -1));
    QOpenGLWidget::leaveEvent(event);
}

} // namespace drape
