#include "docks/recorddock.h"

#include "document/document.h"
#include "record/ffmpegencoder.h"
#include "record/recorder.h"
#include "record/recordplan.h"
#include "document/simulationcontroller.h"
#include "render/viewport.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

struct SizeChoice {
    const char *label;
    int width;
    int height;
};
// width 0 = the viewport's size; the last entry (custom) shows the two spin boxes.
constexpr SizeChoice kSizes[] = {{"Viewport size", 0, 0},     {"640 × 360", 640, 360},   {"854 × 480", 854, 480},
                                 {"1280 × 720", 1280, 720},   {"1920 × 1080", 1920, 1080}, {"1080 × 1080", 1080, 1080},
                                 {"Custom", -1, -1}};
constexpr int kCustomSize = int(std::size(kSizes)) - 1;

enum LengthUnit { Frames = 0, Seconds = 1, UntilStopped = 2 };

QString timeText(double seconds)
{
    if (seconds < 0)
        return {};
    const int s = int(std::ceil(seconds));
    return s >= 60 ? QObject::tr("about %1 min %2 s left").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                   : QObject::tr("about %1 s left").arg(s);
}

} // namespace

// GIF stores a palette per frame and delays in hundredths of a second, so full-HD frames at
// 30 fps make huge files that play at an uneven rate. Switching to GIF therefore scales a
// fixed size wider than 800 px down to 640 px wide (aspect kept, even height) and caps the
// rate at 25 fps (exactly 4/100 s per frame); the viewport size and smaller sizes are kept.
static void applyGifDefaults(RecordSettings &s)
{
    if (s.width > 800 && s.height > 0) {
        const int height = int(std::lround(640.0 * s.height / s.width));
        s.height = std::max(2, height + (height & 1));
        s.width = 640;
    }
    s.fps = std::min(s.fps, 25);
}

RecordDock::RecordDock(QWidget *parent) : QDockWidget(tr("Record"), parent)
{
    setObjectName(QStringLiteral("RecordDock"));
    m_ffmpeg = FfmpegEncoder::findFfmpeg();
    m_recorder = new Recorder(this);
    buildUi();
    connect(m_recorder, &Recorder::started, this, [this](const RecordPlan &plan) {
        m_progress->setRange(0, plan.frames > 0 ? plan.frames : 0);
        m_progress->setValue(0);
        m_progress->setFormat(plan.frames > 0 ? tr("Frame 0 of %1").arg(plan.frames) : tr("Frame 0"));
        m_status->setText(plan.notes.join(QLatin1Char('\n')));
        updateEnabled();
    });
    connect(m_recorder, &Recorder::progress, this, [this](int done, int total, double left) {
        if (total > 0) {
            m_progress->setValue(done);
            m_progress->setFormat(tr("Frame %1 of %2 — %3").arg(done).arg(total).arg(timeText(left)));
        } else {
            m_progress->setFormat(tr("Frame %1 (%2 s)").arg(done).arg(done / double(std::max(1, m_fps->value())), 0,
                                                                        'f', 1));
        }
    });
    connect(m_recorder, &Recorder::finished, this, &RecordDock::onFinished);
    refreshFromScene();
}

RecordDock::~RecordDock() = default;

void RecordDock::buildUi()
{
    auto *body = new QWidget(this);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_format = new QComboBox(body);
    for (RecordFormat f : {RecordFormat::Mp4, RecordFormat::WebM, RecordFormat::Gif, RecordFormat::PngSequence,
                           RecordFormat::ObjSequence})
        m_format->addItem(recordFormatName(f), int(f));
    if (m_ffmpeg.isEmpty()) {
        // Video needs the ffmpeg program; the sequences do not.
        auto *model = qobject_cast<QStandardItemModel *>(m_format->model());
        for (int i = 0; i < 3; ++i) {
            model->item(i)->setEnabled(false);
            model->item(i)->setToolTip(tr("ffmpeg was not found on PATH: install it (apt-get install ffmpeg) to "
                                          "record video. PNG and OBJ sequences work without it."));
        }
    }
    form->addRow(tr("Format"), m_format);

    m_size = new QComboBox(body);
    for (const SizeChoice &s : kSizes)
        m_size->addItem(tr(s.label));
    m_width = new QSpinBox(body);
    m_height = new QSpinBox(body);
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(16, 8192);
        box->setSuffix(tr(" px"));
    }
    m_customSize = new QWidget(body);
    auto *custom = new QHBoxLayout(m_customSize);
    custom->setContentsMargins(0, 0, 0, 0);
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("×"), m_customSize));
    custom->addWidget(m_height);
    form->addRow(tr("Size"), m_size);
    form->addRow(QString(), m_customSize);

    m_fps = new QSpinBox(body);
    m_fps->setRange(1, 240);
    m_fps->setSuffix(tr(" fps"));
    form->addRow(tr("Frame rate"), m_fps);

    m_quality = new QSpinBox(body);
    m_quality->setRange(0, 100);
    m_quality->setToolTip(tr("Video quality, 0..100 (mapped to the encoder's constant-rate factor; GIF: palette size)."));
    form->addRow(tr("Quality"), m_quality);

    m_length = new QSpinBox(body);
    m_length->setRange(1, 1000000);
    m_lengthUnit = new QComboBox(body);
    m_lengthUnit->addItems({tr("frames"), tr("seconds"), tr("until stopped")});
    auto *length = new QHBoxLayout;
    length->addWidget(m_length, 1);
    length->addWidget(m_lengthUnit);
    form->addRow(tr("Length"), length);

    // The range in the document's own frames (the timeline's), saved with the scene.
    m_startFrame = new QSpinBox(body);
    m_startFrame->setObjectName(QStringLiteral("RecordStartFrame"));
    m_startFrame->setRange(0, 100000000);
    m_startFrame->setToolTip(tr("The first frame of the take to record (with \"Restart\" checked)"));
    m_endFrame = new QSpinBox(body);
    m_endFrame->setObjectName(QStringLiteral("RecordEndFrame"));
    m_endFrame->setRange(0, 100000000);
    m_endFrame->setSpecialValueText(tr("by length"));
    m_endFrame->setToolTip(tr("The last frame of the take to record; it then sets the length"));
    auto *range = new QHBoxLayout;
    range->addWidget(m_startFrame, 1);
    range->addWidget(new QLabel(tr("to"), body));
    range->addWidget(m_endFrame, 1);
    form->addRow(tr("Frames"), range);

    m_overlays = new QCheckBox(tr("Include overlays (wireframe, strain, ...)"), body);
    m_transparent = new QCheckBox(tr("Transparent background (PNG)"), body);
    m_restart = new QCheckBox(tr("Restart the simulation first"), body);
    m_restart->setChecked(true);
    m_restart->setToolTip(tr("Frame k shows the take at exactly k / fps seconds after the range's first frame. "
                             "Unchecked, the recording starts at the playhead. Frames come from the timeline's cache."));
    form->addRow(m_overlays);
    form->addRow(m_transparent);
    form->addRow(m_restart);

    m_output = new QLineEdit(body);
    m_browse = new QPushButton(tr("…"), body);
    m_browse->setToolTip(tr("Choose the file or folder to write"));
    auto *out = new QHBoxLayout;
    out->addWidget(m_output, 1);
    out->addWidget(m_browse);
    form->addRow(tr("Output"), out);

    m_notes = new QLabel(body);
    m_notes->setWordWrap(true);
    m_notes->setStyleSheet(QStringLiteral("color: palette(mid);"));

    m_record = new QPushButton(tr("Record"), body);
    m_stop = new QPushButton(tr("Stop"), body);
    m_stop->setToolTip(tr("End the recording here and keep what was recorded"));
    m_cancel = new QPushButton(tr("Cancel"), body);
    m_cancel->setToolTip(tr("Abandon the recording: no video is written (sequence frames stay)"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_record, 1);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_cancel);
    m_progress = new QProgressBar(body);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("Idle"));
    m_progress->setValue(0);
    m_status = new QLabel(body);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *column = new QVBoxLayout(body);
    column->addLayout(form);
    column->addWidget(m_notes);
    column->addLayout(buttons);
    column->addWidget(m_progress);
    column->addWidget(m_status);
    column->addStretch(1);
    setWidget(body);
    auto *openFolder = new QAction(tr("Open Output Folder"), body);
    openFolder->setObjectName(QStringLiteral("OpenOutputFolder"));
    connect(openFolder, &QAction::triggered, this, &RecordDock::openOutputFolder);
    auto *copyPath = new QAction(tr("Copy Output Path"), body);
    connect(copyPath, &QAction::triggered, this,
        [this] { QGuiApplication::clipboard()->setText(QFileInfo(outputPath()).absoluteFilePath()); });
    body->addActions({ openFolder, copyPath });
    body->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto edit = [this](const QString &field, auto change) {
        if (m_updating || !m_document)
            return;
        RecordSettings s = m_document->scene().record;
        change(s);
        if (!(s == m_document->scene().record))
            commit(field, s);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, [this, edit](int) {
        edit(tr("format"), [this](RecordSettings &s) {
            s.format = RecordFormat(m_format->currentData().toInt());
            if (s.format != RecordFormat::PngSequence)
                s.transparent = false;
            if (s.format == RecordFormat::Gif)
                applyGifDefaults(s);
        });
        if (!m_outputEdited && m_document)
            setOutputPath(defaultRecordOutput(m_document->scene().record.format,
                                              QString::fromStdString(m_document->scene().name)));
        updateEnabled();
    });
    connect(m_size, &QComboBox::currentIndexChanged, this, [this, edit](int index) {
        if (index == kCustomSize) {
            updateEnabled();
            return;
        }
        edit(tr("size"), [index](RecordSettings &s) {
            s.width = kSizes[index].width;
            s.height = kSizes[index].height;
        });
    });
    auto customSize = [this, edit](int) {
        edit(tr("size"), [this](RecordSettings &s) {
            s.width = m_width->value();
            s.height = m_height->value();
        });
    };
    connect(m_width, &QSpinBox::valueChanged, this, customSize);
    connect(m_height, &QSpinBox::valueChanged, this, customSize);
    connect(m_fps, &QSpinBox::valueChanged, this, [this, edit](int fps) {
        const bool seconds = m_lengthUnit->currentIndex() == Seconds;
        edit(tr("frame rate"), [this, fps, seconds](RecordSettings &s) {
            s.fps = fps;
            if (seconds) // keep the length in seconds
                s.frames = std::max(1, m_length->value() * fps);
        });
    });
    connect(m_quality, &QSpinBox::valueChanged, this,
            [edit](int q) { edit(tr("quality"), [q](RecordSettings &s) { s.quality = q; }); });
    auto lengthChanged = [this, edit](int) {
        const int unit = m_lengthUnit->currentIndex();
        edit(tr("length"), [this, unit](RecordSettings &s) {
            s.frames = unit == UntilStopped ? 0 : unit == Seconds ? m_length->value() * s.fps : m_length->value();
        });
        updateEnabled();
    };
    connect(m_length, &QSpinBox::valueChanged, this, lengthChanged);
    connect(m_lengthUnit, &QComboBox::currentIndexChanged, this, [this, lengthChanged](int unit) {
        if (m_updating || !m_document)
            return;
        // Show the same length in the new unit.
        const RecordSettings &s = m_document->scene().record;
        const QSignalBlocker block(m_length);
        if (unit == Seconds)
            m_length->setValue(std::max(1, int(std::lround(double(std::max(1, s.frames)) / s.fps))));
        else if (unit == Frames)
            m_length->setValue(std::max(1, s.frames > 0 ? s.frames : 5 * s.fps));
        lengthChanged(0);
    });
    connect(m_startFrame, &QSpinBox::valueChanged, this, [edit](int start) {
        edit(tr("range"), [start](RecordSettings &s) {
            s.startFrame = start;
            if (s.endFrame != 0 && s.endFrame <= start)
                s.endFrame = 0; // an end before the start means none
        });
    });
    connect(m_endFrame, &QSpinBox::valueChanged, this, [this, edit](int end) {
        edit(tr("range"), [end](RecordSettings &s) { s.endFrame = end > s.startFrame ? end : 0; });
        updateEnabled();
    });
    connect(m_overlays, &QCheckBox::toggled, this,
            [edit](bool on) { edit(tr("overlays"), [on](RecordSettings &s) { s.overlays = on; }); });
    connect(m_transparent, &QCheckBox::toggled, this,
            [edit](bool on) { edit(tr("background"), [on](RecordSettings &s) { s.transparent = on; }); });
    connect(m_output, &QLineEdit::textEdited, this, [this] {
        m_outputEdited = true;
        updateNotes();
    });
    connect(m_browse, &QPushButton::clicked, this, &RecordDock::browse);
    connect(m_record, &QPushButton::clicked, this, &RecordDock::startRecording);
    connect(m_stop, &QPushButton::clicked, this, &RecordDock::stopRecording);
    connect(m_cancel, &QPushButton::clicked, this, &RecordDock::cancelRecording);
}

void RecordDock::setDocument(Document *document)
{
    if (m_document == document)
        return;
    if (m_recorder->isRecording())
        m_recorder->cancel();
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document)
        connect(m_document, &Document::changed, this, [this](Change what) {
            if (what & Change::Record)
                refreshFromScene();
        });
    m_outputEdited = false;
    refreshFromScene();
}

void RecordDock::setViewport(Viewport *viewport)
{
    m_viewport = viewport;
    m_recorder->setViewport(viewport);
}

void RecordDock::setController(SimulationController *controller) { m_recorder->setController(controller); }

QString RecordDock::outputPath() const { return m_output->text().trimmed(); }

QString RecordDock::outputFolder() const
{
    const RecordFormat format = m_document ? m_document->scene().record.format : RecordFormat::Mp4;
    const QFileInfo info(outputPath());
    return recordFormatIsSequence(format) ? info.absoluteFilePath() : info.absolutePath();
}

bool RecordDock::openOutputFolder()
{
    const QString folder = outputFolder();
    if (!QFileInfo(folder).isDir()) {
        emit message(tr("The output folder %1 does not exist yet: a recording makes it.").arg(folder));
        return false;
    }
    return QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
}

void RecordDock::setOutputPath(const QString &path)
{
    m_output->setText(path);
    updateNotes();
}

void RecordDock::commit(const QString &field, const RecordSettings &settings)
{
    // Changes of one field in a row (a spin box scrubbed) are one undo step.
    m_document->setPresentation([settings](Scene &next) { next.record = settings; },
                                tr("Change recording %1").arg(field), QStringLiteral("record:") + field, Change::Record);
}

void RecordDock::refreshFromScene()
{
    const QSignalBlocker blockers[] = {QSignalBlocker(m_format), QSignalBlocker(m_size), QSignalBlocker(m_width),
                                       QSignalBlocker(m_height), QSignalBlocker(m_fps), QSignalBlocker(m_quality),
                                       QSignalBlocker(m_length), QSignalBlocker(m_lengthUnit),
                                       QSignalBlocker(m_overlays), QSignalBlocker(m_transparent),
                                       QSignalBlocker(m_startFrame), QSignalBlocker(m_endFrame)};
    m_updating = true;
    const RecordSettings s = m_document ? m_document->scene().record : RecordSettings{};
    m_format->setCurrentIndex(std::max(0, m_format->findData(int(s.format))));
    int sizeIndex = kCustomSize;
    for (int i = 0; i < kCustomSize; ++i) {
        if ((kSizes[i].width == 0 && (s.width <= 0 || s.height <= 0)) ||
            (kSizes[i].width == s.width && kSizes[i].height == s.height))
            sizeIndex = i;
    }
    if (m_size->currentIndex() != kCustomSize || sizeIndex != 0)
        m_size->setCurrentIndex(sizeIndex);
    m_width->setValue(s.width > 0 ? s.width : 1280);
    m_height->setValue(s.height > 0 ? s.height : 720);
    m_fps->setValue(s.fps);
    m_quality->setValue(s.quality);
    if (s.frames == 0) {
        m_lengthUnit->setCurrentIndex(UntilStopped);
    } else if (m_lengthUnit->currentIndex() == Seconds && s.frames % std::max(1, s.fps) == 0) {
        m_length->setValue(s.frames / std::max(1, s.fps));
    } else {
        m_lengthUnit->setCurrentIndex(Frames);
        m_length->setValue(s.frames);
    }
    m_startFrame->setValue(s.startFrame);
    m_endFrame->setValue(s.endFrame);
    m_overlays->setChecked(s.overlays);
    m_transparent->setChecked(s.transparent);
    if (!m_outputEdited && m_document)
        m_output->setText(defaultRecordOutput(s.format, QString::fromStdString(m_document->scene().name)));
    m_updating = false;
    updateEnabled();
}

void RecordDock::updateEnabled()
{
    const bool recording = m_recorder->isRecording();
    const bool haveDoc = m_document != nullptr;
    const RecordFormat format = RecordFormat(m_format->currentData().toInt());
    const bool video = FfmpegEncoder::isVideoFormat(format);
    const bool editable = haveDoc && !recording;
    for (QWidget *w : std::initializer_list<QWidget *>{m_format, m_size, m_fps, m_restart, m_output, m_browse,
                                                       m_startFrame, m_endFrame})
        w->setEnabled(editable);
    const bool custom = m_size->currentIndex() == kCustomSize;
    m_width->setEnabled(editable && custom);
    m_height->setEnabled(editable && custom);
    m_customSize->setVisible(custom);
    m_quality->setEnabled(editable && video);
    const bool ranged = m_document && m_document->scene().record.endFrame > 0;
    m_lengthUnit->setEnabled(editable && !ranged);
    m_length->setEnabled(editable && !ranged && m_lengthUnit->currentIndex() != UntilStopped);
    m_overlays->setEnabled(editable && format != RecordFormat::ObjSequence);
    m_transparent->setEnabled(editable && format == RecordFormat::PngSequence);
    m_size->setEnabled(editable && format != RecordFormat::ObjSequence);
    m_record->setEnabled(editable && (!video || !m_ffmpeg.isEmpty()));
    m_record->setToolTip(video && m_ffmpeg.isEmpty() ? tr("ffmpeg was not found on PATH: video formats are "
                                                          "unavailable; choose PNG or OBJ sequence.")
                                                     : QString());
    m_stop->setEnabled(recording);
    m_cancel->setEnabled(recording);
    updateNotes();
}

void RecordDock::updateNotes()
{
    if (!m_document) {
        m_notes->clear();
        return;
    }
    const RecordSettings &s = m_document->scene().record;
    QStringList notes;
    if (FfmpegEncoder::isVideoFormat(s.format) && m_ffmpeg.isEmpty())
        notes << tr("ffmpeg was not found on PATH: MP4, WebM and GIF are unavailable (apt-get install ffmpeg). "
                    "PNG and OBJ sequences still work.");
    QSize viewportSize(1280, 720);
    if (m_viewport)
        viewportSize = (QSizeF(m_viewport->size()) * m_viewport->devicePixelRatioF()).toSize();
    RecordPlan plan;
    QString error;
    if (makeRecordPlan(s, m_document->simulation().solver.frameRate, viewportSize, QStringLiteral("-"), &plan, &error))
        notes << plan.notes;
    else
        notes << error;
    if (s.format == RecordFormat::Gif && (plan.frameSize.width() > 800 || s.fps > 30))
        notes << tr("GIF files grow quickly: 640 × 360 at 15–25 fps keeps them small.");
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
}

void RecordDock::browse()
{
    if (!m_document)
        return;
    const RecordFormat format = m_document->scene().record.format;
    QString path;
    if (recordFormatIsSequence(format)) {
        path = QFileDialog::getExistingDirectory(this, tr("Folder for the frames"), QFileInfo(outputPath()).path());
    } else {
        const QString suffix = recordFormatSuffix(format);
        path = QFileDialog::getSaveFileName(this, tr("Save video"), outputPath(),
                                            tr("%1 (*%2)").arg(recordFormatName(format), suffix));
        if (!path.isEmpty() && !path.endsWith(suffix, Qt::CaseInsensitive))
            path += suffix;
    }
    if (path.isEmpty())
        return;
    m_outputEdited = true;
    setOutputPath(path);
}

void RecordDock::startRecording()
{
    if (!m_document || m_recorder->isRecording())
        return;
    QString error;
    m_status->clear();
    if (!m_recorder->start(m_document, outputPath(), m_restart->isChecked(), &error)) {
        // The bar must not keep saying "Done" from an earlier recording.
        m_progress->setRange(0, 100);
        m_progress->setValue(0);
        m_progress->setFormat(tr("Not started"));
        m_status->setText(error);
        emit message(error.section(QLatin1Char('\n'), 0, 0));
        updateEnabled();
        return;
    }
    updateEnabled();
}

void RecordDock::stopRecording() { m_recorder->stop(); }

void RecordDock::cancelRecording() { m_recorder->cancel(); }

void RecordDock::onFinished(bool ok, const QString &text)
{
    m_status->setText(text);
    m_progress->setFormat(ok ? tr("Done") : tr("Stopped"));
    emit message(text.section(QLatin1Char('\n'), 0, 0));
    // A new recording must not overwrite this one by accident.
    if (ok && !m_outputEdited && m_document)
        m_output->setText(defaultRecordOutput(m_document->scene().record.format,
                                              QString::fromStdString(m_document->scene().name)));
    updateEnabled();
}

} // namespace drape
