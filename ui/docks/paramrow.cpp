#include "docks/paramrow.h"

#include "appsettings.h"
#include "scene/params.h"
#include "widgets/wheelguard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape {

namespace {

/// "semi-implicit-euler" → "Semi-implicit Euler"-like display text: dashes become spaces,
/// the first letter is capitalised and solver acronyms are upper case.
QString displayName(const std::string &name)
{
    QString text = QString::fromStdString(name).replace(QLatin1Char('-'), QLatin1Char(' '));
    for (const char *acronym : {"xpbd", "pbd"}) {
        if (text == QLatin1String(acronym))
            return text.toUpper();
    }
    text.replace(QLatin1String("euler"), QLatin1String("Euler"));
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

bool usesLog(const ParamDesc &p) { return p.logScale && p.min > 0.0 && p.max > p.min; }

/// The unit a value is shown in and the factor from the stored SI value to it, for
/// Preferences ▸ Units. Values are always stored and edited in SI; only the text changes.
struct DisplayUnit {
    QString unit;
    double scale = 1.0;
};

DisplayUnit displayUnit(const std::string &si)
{
    const QString unit = QString::fromStdString(si);
    if (AppSettings::units() != AppSettings::Units::CentimetreGram)
        return { unit, 1.0 };
    if (unit == QLatin1String("m"))
        return { QStringLiteral("cm"), 100.0 };
    if (unit == QLatin1String("kg"))
        return { QStringLiteral("g"), 1000.0 };
    if (unit == QLatin1String("kg/m²"))
        return { QStringLiteral("g/m²"), 1000.0 };
    if (unit == QLatin1String("m/s"))
        return { QStringLiteral("cm/s"), 100.0 };
    return { unit, 1.0 };
}

/// A spin box that shows 4 significant digits in plain or scientific notation as the
/// magnitude needs (1e-07, 0.05, 2000) and steps by a factor on log-scaled parameters.
class ParamSpinBox : public QDoubleSpinBox {
public:
    ParamSpinBox(const ParamDesc &param, QWidget *parent)
        : QDoubleSpinBox(parent)
        , m_param(param)
        , m_display(displayUnit(param.unit))
    {
        setDecimals(param.integer ? 0 : 12);
        setRange(param.min, param.max);
        setKeyboardTracking(false);
        setAccelerated(true);
        setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
        if (!m_display.unit.isEmpty())
            setSuffix(QStringLiteral(" ") + m_display.unit);
        setSingleStep(param.integer ? 1.0 : (param.max - param.min) / 100.0);
        setAlignment(Qt::AlignRight);
        setMinimumWidth(96);
    }

    QString textFromValue(double value) const override
    {
        if (m_param.integer)
            return QString::number(qint64(std::llround(value)));
        return QString::number(value * m_display.scale, 'g', 4);
    }

    double valueFromText(const QString &text) const override
    {
        QString t = text;
        if (!suffix().isEmpty() && t.endsWith(suffix()))
            t.chop(suffix().size());
        return locale().toDouble(t.trimmed()) / m_display.scale;
    }

    QValidator::State validate(QString &text, int &) const override
    {
        QString t = text;
        if (!suffix().isEmpty() && t.endsWith(suffix()))
            t.chop(suffix().size());
        t = t.trimmed();
        if (t.isEmpty() || t == QLatin1String("-") || t.endsWith(QLatin1Char('e')) || t.endsWith(QLatin1String("e-")))
            return QValidator::Intermediate;
        bool ok = false;
        locale().toDouble(t, &ok);
        return ok ? QValidator::Acceptable : QValidator::Invalid;
    }

    void stepBy(int steps) override
    {
        if (usesLog(m_param)) {
            // 20 steps per decade.
            setValue(std::clamp(value() * std::pow(10.0, steps / 20.0), m_param.min, m_param.max));
            return;
        }
        QDoubleSpinBox::stepBy(steps);
    }

private:
    const ParamDesc &m_param;
    DisplayUnit m_display;
};

} // namespace

ParamRow::ParamRow(const ParamDesc &param, QGridLayout *grid, int row, QWidget *parent)
    : QObject(parent), m_param(param)
{
    QString label = QString::fromStdString(param.label);
    QString tip = QString::fromStdString(param.help);
    if (!param.unit.empty())
        tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Unit: %1").arg(QString::fromStdString(param.unit));
    tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
        + tr("Range %1 … %2").arg(param.min, 0, 'g', 4).arg(param.max, 0, 'g', 4);
    if (param.needsRebuild) {
        // Said in the row, not only in the tooltip: the value rebuilds the cloth, so it changes
        // the scene's start whatever the frame and the playhead goes back to frame 0.
        label = QStringLiteral("%1<br><small>↻ %2</small>").arg(label.toHtmlEscaped(), tr("restarts from frame 0"));
        tip += QStringLiteral("\n")
            + tr("Rebuilds the cloth: changes the scene's start and returns to frame 0; events of the take that no "
                 "longer apply are removed.");
    } else {
        label = label.toHtmlEscaped();
    }
    m_label = new QLabel(label, parent);
    m_label->setTextFormat(Qt::RichText);
    m_label->setToolTip(tip);
    grid->addWidget(m_label, row, 0);

    if (!param.enumNames.empty()) {
        m_combo = new QComboBox(parent);
        for (const std::string &name : param.enumNames)
            m_combo->addItem(displayName(name));
        m_combo->setToolTip(tip);
        WheelGuard::install(m_combo);
        grid->addWidget(m_combo, row, 1, 1, 2);
        connect(m_combo, &QComboBox::activated, this, [this](int index) {
            emitEdit(index);
            emit editFinished();
        });
        return;
    }
    if (param.toggle) {
        m_check = new QCheckBox(parent);
        m_check->setToolTip(tip);
        grid->addWidget(m_check, row, 1, 1, 2);
        connect(m_check, &QCheckBox::toggled, this, [this](bool on) {
            emitEdit(on ? 1.0 : 0.0);
            emit editFinished();
        });
        return;
    }

    m_slider = new QSlider(Qt::Horizontal, parent);
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tip);
    m_slider->setMinimumWidth(90);
    grid->addWidget(m_slider, row, 1);
    m_spin = new ParamSpinBox(param, parent);
    m_spin->setToolTip(tip);
    WheelGuard::install(m_slider);
    WheelGuard::install(m_spin);
    grid->addWidget(m_spin, row, 2);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        const double v = valueAtSlider(position);
        {
            const QSignalBlocker blocker(m_spin);
            m_spin->setValue(v);
        }
        emitEdit(v);
    });
    connect(m_slider, &QSlider::sliderReleased, this, &ParamRow::editFinished);
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        {
            const QSignalBlocker blocker(m_slider);
            m_slider->setValue(sliderPosition(v));
        }
        emitEdit(v);
    });
    connect(m_spin, &QDoubleSpinBox::editingFinished, this, &ParamRow::editFinished);
}

void ParamRow::emitEdit(double value)
{
    if (m_param.integer)
        value = std::round(value);
    value = std::clamp(value, m_param.min, m_param.max);
    if (value == m_value)
        return;
    m_value = value;
    emit valueEdited(value);
}

int ParamRow::sliderPosition(double value) const
{
    double t = 0.0;
    if (usesLog(m_param))
        t = std::log(std::max(value, m_param.min) / m_param.min) / std::log(m_param.max / m_param.min);
    else if (m_param.max > m_param.min)
        t = (value - m_param.min) / (m_param.max - m_param.min);
    return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

double ParamRow::valueAtSlider(int position) const
{
    const double t = double(position) / kSliderSteps;
    double v = usesLog(m_param) ? m_param.min * std::pow(m_param.max / m_param.min, t)
                                : m_param.min + t * (m_param.max - m_param.min);
    if (m_param.integer)
        v = std::round(v);
    else if (v != 0.0) {
        // Four significant digits: slider values read as numbers a person would type.
        const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::abs(v))));
        v = std::round(v * scale) / scale;
    }
    return std::clamp(v, m_param.min, m_param.max);
}

void ParamRow::setValue(double value)
{
    m_value = value;
    if (m_combo) {
        const QSignalBlocker blocker(m_combo);
        m_combo->setCurrentIndex(int(std::lround(value)));
    }
    if (m_check) {
        const QSignalBlocker blocker(m_check);
        m_check->setChecked(value != 0.0);
    }
    if (m_slider) {
        const QSignalBlocker b1(m_slider);
        const QSignalBlocker b2(m_spin);
        m_slider->setValue(sliderPosition(value));
        m_spin->setValue(value);
    }
}

void ParamRow::setVisible(bool visible)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_label, m_slider, m_spin, m_combo, m_check}) {
        if (w)
            w->setVisible(visible);
    }
}

} // namespace drape
