#include "render/fabrictexture.h"

#include <QFileInfo>
#include <QImageReader>

#include <epoxy/gl.h>

#include <algorithm>

namespace drape {

QImage loadFabricImage(const QString &path, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("Fabric image %1: %2").arg(path, why);
        return QImage();
    };
    if (path.isEmpty()) {
        if (error)
            *error = QStringLiteral("No fabric image chosen yet");
        return QImage();
    }
    const QFileInfo info(path);
    if (!info.exists())
        return fail(QStringLiteral("no such file"));
    if (!info.isFile() || !info.isReadable())
        return fail(QStringLiteral("not a readable file"));
    QImageReader reader(path);
    reader.setAutoTransform(true);
    QImage image = reader.read();
    if (image.isNull())
        return fail(QStringLiteral("not an image Drape can read (%1)").arg(reader.errorString()));
    if (std::max(image.width(), image.height()) > kMaxFabricImageSide)
        image = image.scaled(kMaxFabricImageSide, kMaxFabricImageSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return image.convertToFormat(QImage::Format_RGBA8888);
}

void FabricTexture::update(const QImage &image)
{
    if (image.isNull()) {
        release();
        return;
    }
    if (m_texture && image.cacheKey() == m_key)
        return;
    const QImage rgba = image.format() == QImage::Format_RGBA8888 ? image : image.convertToFormat(QImage::Format_RGBA8888);
    if (!m_texture)
        glGenTextures(1, &m_texture);
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4); // RGBA rows are whole words
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, rgba.width(), rgba.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
        rgba.constBits());
    glGenerateMipmap(GL_TEXTURE_2D); // a distant cloth samples a small level, not a shimmering one
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glBindTexture(GL_TEXTURE_2D, 0);
    m_key = image.cacheKey();
}

void FabricTexture::bind(int unit) const
{
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glActiveTexture(GL_TEXTURE0);
}

void FabricTexture::release()
{
    if (m_texture)
        glDeleteTextures(1, &m_texture);
    m_texture = 0;
    m_key = 0;
}

} // namespace drape
