// The 3D view: an OpenGL 3.3 core QOpenGLWidget that draws the document with SceneRenderer,
// owns the orbit camera, and forwards mouse and key input to the active tool.
//
// Buttons: the left button belongs to the tools. Camera: orbit = middle drag (or Alt+left),
// pan = Shift+middle (or Alt+Shift+left), zoom to cursor = wheel (a tool may take Ctrl+wheel),
// F = frame all. Right-button presses go to the active tool first, then to the secondary
// tool (the cut tool), so right-drag cuts from any tool.
//
// A tool picks and edits the state at the playhead. While the document prepares it (the
// playhead rests on a cached frame the state is not at, Document::settle) a tool's press, and
// the moves, releases and keys after it, are queued with the document (whenSettled) and given
// to the tool in order once the state is there; the viewport shows a busy cursor meanwhile.
// The camera moves at once.
//
// GL discipline after Qt's hellogl2 example: GL objects are made in initializeGL() and freed
// in cleanup(), connected to the context's aboutToBeDestroyed, with the context current.
#pragma once

#include "appsettings.h"
#include "document/document.h"
#include "tools/tool.h"
#include "scene/camera.h"
#include "render/cachedframeview.h"
#include "render/scenerenderer.h"

#include <QImage>
#include <QOpenGLWidget>

#include <optional>
#include <QPointer>

namespace drape {

class Document;
class Tool;

class Viewport : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit Viewport(QWidget *parent = nullptr);
    ~Viewport() override;

    /// The application's default surface format (set before the QApplication is made): 3.3
    /// core, 24-bit depth, no multisampling; a viewport adds samplesForSystem() to its own.
    static QSurfaceFormat surfaceFormat();
    /// True when the system's OpenGL runs on the processor (Mesa llvmpipe, softpipe, swrast):
    /// probed once with a small offscreen context.
    static bool systemRendererIsSoftware();

    /// What the viewport draws with.
    struct Quality {
        int samples = 4;          ///< multisampling of the viewport's framebuffer
        int shadowMapSize = 2048; ///< px per side of the key light's shadow map; 0: no shadows
    };
    /// A GPU draws everything. A software renderer draws what Preferences ▸ Software renderer
    /// quality (`quality`) trades: Fast neither multisampling nor shadows; Balanced, the
    /// default, shadows from a 1024² map with one lookup and no multisampling (on llvmpipe 2×
    /// multisampling costs about as much as the rest of the frame); Full what a GPU draws.
    static Quality quality(bool software, AppSettings::SoftwareQuality quality);
    /// Multisampling for this system: quality(systemRendererIsSoftware(), the preference).
    static int samplesForSystem();

    void setDocument(Document *document);
    Document *document() const { return m_document; }

    const Camera &camera() const { return m_camera; }
    Camera &camera() { return m_camera; }
    /// Stores the camera in the document (saved with the scene) and repaints.
    void cameraChanged();

    Ray rayAt(const QPointF &logicalPos) const;
    bool project(const Vec3 &world, QPointF *logicalPos, float *depth = nullptr) const;

    void setTool(Tool *tool);
    Tool *tool() const { return m_tool; }
    void setSecondaryTool(Tool *tool) { m_secondaryTool = tool; }
    Tool *secondaryTool() const { return m_secondaryTool; }

    SceneRenderer *renderer() { return &m_renderer; }
    /// GL_RENDERER and GL_VERSION of the context in use (empty before the first initializeGL).
    QString glRenderer() const { return m_glRenderer; }
    QString glVersion() const { return m_glVersion; }
    /// True when this viewport's context renders in software (from GL_RENDERER).
    bool isSoftwareRenderer() const { return m_software; }
    /// Milliseconds the last paintGL() took including glFinish (only while measuring: a finish
    /// per frame stalls the pipeline, so the editor does not measure by default).
    void setMeasureDrawTime(bool on) { m_measureDraw = on; }
    double lastDrawMilliseconds() const { return m_lastDrawMs; }
    /// Which constraint kinds the constraints overlay shows (bit 1 << ConstraintKind).
    void setConstraintKinds(unsigned mask);
    unsigned constraintKinds() const { return m_constraintKinds; }
    /// Stress heat map (N/m, from the constraint tensions) on the cloth, with its legend.
    void setShowStress(bool on);
    bool showStress() const { return m_showStress; }
    /// N/m at the top of the stress legend in the last frame drawn.
    float stressScale() const { return m_stressScale; }

    /// The picture of the Image fabric look (loadFabricImage); a null image draws that look plain.
    void setFabricImage(const QImage &image);
    const QImage &fabricImage() const { return m_fabricImage; }
    /// Draws `frame`, a frame of the document's timeline, while the document's playhead is
    /// on it and its state is not (playing or scrubbing over the cache; Document::showFrame).
    void showCachedFrame(std::shared_ptr<const drape::CachedFrame> frame);
    /// What the viewport draws now: the cached frame's positions or the document's state.
    const Simulation &shownSimulation() const;
    /// The frame shown: the cached one while the document lags behind its playhead.
    std::uint64_t shownFrame() const;

    /// Empty when GL came up; otherwise the shader/context error shown in the view.
    QString glError() const { return m_glError; }

public slots:
    void requestUpdate() { update(); }
    void frameAll();
    void setView(drape::CameraView view);

public:
    /// True when the whole scene (cloths and colliders, without the ground) lies inside the view.
    bool isSceneInView() const;
    /// Frames one cloth (its current particle positions).
    void frameCloth(int cloth);

signals:
    void frameRendered();
    void hoverMoved(QPointF logicalPos);
    /// A shader failed to compile/link or the context is unusable; the message names the file.
    void glErrorOccurred(const QString &message);
    void cameraMoved();
    /// A right click (press and release without a drag) at `logicalPos`.
    void contextMenuRequested(QPointF logicalPos);
    /// A left click (press and release on the same spot) that no tool took: selects what is
    /// under the cursor.
    void clicked(QPointF logicalPos);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    enum class Drag { None, Orbit, Pan };

    void cleanup();
    void syncCameraFromDocument();
    bool sceneBounds(Vec3 *lo, Vec3 *hi) const;
    void fitSceneIfCut();
    void onDocumentChanged(unsigned what);
    void paintOverlays(QPainter &painter);
    void paintStrainLegend(QPainter &painter);
    void paintLegend(QPainter &painter, const QString &title, const QString &top, const QString &bottom);
    Drag cameraDragFor(const QMouseEvent *event) const;
    /// The tools' share of the mouse events (the camera's is handled at once).
    void toolPress(QMouseEvent *event);
    void toolMove(QMouseEvent *event);
    void toolRelease(QMouseEvent *event);
    /// A tool press, and the moves, releases and keys after it, wait while the document
    /// prepares the state at the playhead: the tools pick and edit that state.
    bool toolMustWait() const;
    /// Runs `handler` with a copy of `event` once the document has the state (in order with
    /// the edits that wait for it).
    template<typename Event>
    void afterWaiting(Event *event, void (Viewport::*handler)(Event *));
    void onBusyChanged(bool busy);

    QPointer<Document> m_document;
    QPointer<Tool> m_tool;
    QPointer<Tool> m_secondaryTool;
    Tool *m_pressedTool = nullptr; ///< the tool that took the current button press
    Camera m_camera;
    SceneRenderer m_renderer;
    bool m_fitOnResize = false; ///< frame the scene on resize while the user has not moved the camera
    bool m_autoFramed = false; ///< the view was framed automatically (not the scene's own camera)
    QString m_glRenderer;
    QString m_glVersion;
    bool m_software = false;
    bool m_measureDraw = false;
    double m_lastDrawMs = 0.0;
    QPointF m_rightPressPos { -1e9, -1e9 }; ///< where the right button went down (click vs. drag)
    std::optional<QPointF> m_leftClickPos; ///< a left press no tool took, until its release
    QString m_glError;
    Drag m_drag = Drag::None;
    QPointF m_lastPos;
    unsigned m_constraintKinds = 0xfu;
    bool m_showStress = false;
    QImage m_fabricImage;
    float m_stressScale = 1.f;
    std::vector<std::vector<float>> m_stressTension; ///< per cloth, N per constraint, made each paint
    bool m_framedOnce = false;
    int m_toolEventsWaiting = 0; ///< mouse and key events queued with the document
    bool m_replayingToolEvent = false; ///< handling a queued event: no waiting again
    std::shared_ptr<const CachedFrame> m_cachedFrame; ///< drawn while the document is not settled
    CachedFrameView m_cachedView;
};

} // namespace drape
