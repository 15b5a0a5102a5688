#include "widgets/preferencesdialog.h"

#include "appsettings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>

namespace drape {

PreferencesDialog::PreferencesDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("PreferencesDialog"));
    setWindowTitle(tr("Preferences"));

    m_cache = new QSpinBox(this);
    m_cache->setRange(AppSettings::kMinCacheBudgetMiB, 1 << 20);
    m_cache->setSingleStep(256);
    m_cache->setSuffix(tr(" MiB"));
    m_cache->setToolTip(tr("Memory the timeline's cached frames may use; past it, frames far from the playhead are "
                           "dropped to snapshots and simulated again when shown"));
    m_cache->setValue(AppSettings::cacheBudgetMiB());

    m_folder = new QLineEdit(AppSettings::exportFolder(), this);
    m_folder->setPlaceholderText(tr("Pictures and Videos folders"));
    m_folder->setToolTip(
        tr("Where screenshots (F12) and recordings are saved unless you choose another place"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString start = m_folder->text().isEmpty()
            ? QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)
            : m_folder->text();
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Default export folder"), start);
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    m_units = new QComboBox(this);
    m_units->addItem(tr("SI: metres, kilograms (m, kg/m²)"), int(AppSettings::Units::SI));
    m_units->addItem(tr("Centimetres and grams (cm, g/m²)"), int(AppSettings::Units::CentimetreGram));
    m_units->setCurrentIndex(int(AppSettings::units()));
    m_units->setToolTip(
        tr("How lengths, speeds and densities are shown in the parameters (values are stored in SI); "
           "applies to parameter panels made after the change, such as the next start"));

    m_quality = new QComboBox(this);
    m_quality->addItem(tr("Fast: no anti-aliasing, no shadows"), int(AppSettings::SoftwareQuality::Fast));
    m_quality->addItem(tr("Balanced: shadows, edges not smoothed"), int(AppSettings::SoftwareQuality::Balanced));
    m_quality->addItem(tr("Full: as on a graphics card"), int(AppSettings::SoftwareQuality::Full));
    m_quality->setCurrentIndex(int(AppSettings::softwareQuality()));
    m_quality->setToolTip(
        tr("Used when OpenGL runs on the processor (Mesa llvmpipe); takes effect in new windows"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Timeline cache budget:"), m_cache);
    form->addRow(tr("Default export folder:"), folderRow);
    form->addRow(tr("Units:"), m_units);
    form->addRow(tr("Software renderer quality:"), m_quality);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        save();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void PreferencesDialog::save() const
{
    AppSettings::setCacheBudgetMiB(m_cache->value());
    AppSettings::setExportFolder(m_folder->text().trimmed());
    AppSettings::setUnits(AppSettings::Units(m_units->currentData().toInt()));
    AppSettings::setSoftwareQuality(AppSettings::SoftwareQuality(m_quality->currentData().toInt()));
}

} // namespace drape
