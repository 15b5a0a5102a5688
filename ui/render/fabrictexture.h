// The user's fabric image: read from a file with a message that says what went wrong, and
// kept as a mipmapped, repeating GL texture that the cloth shader samples through the UVs
// (the Image fabric look). The image itself is never part of a scene: a scene file must not
// make Drape read another file, so the editor remembers the chosen path in its settings.
#pragma once

#include <QImage>
#include <QString>

namespace drape {

/// Longest side (px) an image keeps on the GPU; larger ones are scaled down when read.
constexpr int kMaxFabricImageSide = 2048;

/// The image at `path` as RGBA, at most kMaxFabricImageSide on its longer side; a null image
/// and `error` ("Fabric image /x/y.png: no such file") when the file is missing or unreadable.
QImage loadFabricImage(const QString &path, QString *error);

class FabricTexture {
public:
    FabricTexture() = default;
    FabricTexture(const FabricTexture &) = delete;
    FabricTexture &operator=(const FabricTexture &) = delete;

    /// Uploads `image` unless it is the one already uploaded (QImage::cacheKey); a null image
    /// frees the texture. A GL context must be current.
    void update(const QImage &image);
    /// Binds the texture to texture unit `unit`.
    void bind(int unit) const;
    bool isValid() const { return m_texture != 0; }
    /// Frees the texture; the context that made it must be current.
    void release();

private:
    unsigned m_texture = 0;
    qint64 m_key = 0;
};

} // namespace drape
