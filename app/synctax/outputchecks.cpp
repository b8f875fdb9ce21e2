#include "app/synctax/outputchecks.h"

#include "core/results/outputpaths.h"

#include <QFileInfo>
#include <QImageWriter>
#include <QStringList>

#include <filesystem>

namespace synctax {

std::optional<QSize> parseWindowSize(const QString& text, QString* problem)
{
    const QString bounds
        = QStringLiteral("at least %1x%1 and at most %2x%2").arg(smallestWindowSide).arg(largestWindowSide);
    const QStringList parts = text.split(QLatin1Char('x'));
    bool widthOk = false;
    bool heightOk = false;
    const int width = parts.size() == 2 ? parts[0].toInt(&widthOk) : 0;
    const int height = parts.size() == 2 ? parts[1].toInt(&heightOk) : 0;
    if (!widthOk || !heightOk) {
        *problem = QStringLiteral("--size %1: expected WIDTHxHEIGHT, e.g. 1600x1000 (%2)").arg(text, bounds);
        return std::nullopt;
    }
    if (width < smallestWindowSide || height < smallestWindowSide) {
        *problem = QStringLiteral("--size %1: too small for the window's layout; expected %2").arg(text, bounds);
        return std::nullopt;
    }
    if (width > largestWindowSide || height > largestWindowSide) {
        *problem = QStringLiteral("--size %1: too large a picture to allocate; expected %2").arg(text, bounds);
        return std::nullopt;
    }
    return QSize(width, height);
}

QString screenshotProblem(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!QImageWriter::supportedImageFormats().contains(suffix.toLatin1())) {
        QStringList formats;
        for (const char* format : { "png", "jpg", "bmp" }) {
            if (QImageWriter::supportedImageFormats().contains(format))
                formats << QStringLiteral(".") + QLatin1String(format);
        }
        const QString found = suffix.isEmpty() ? QStringLiteral("no suffix") : QStringLiteral(".") + suffix;
        return QStringLiteral("cannot write '%1': its suffix names the image format, and %2 is none; expected %3")
            .arg(path, found, formats.join(QStringLiteral(", ")));
    }
    return outputFileProblem(path);
}

QString outputFileProblem(const QString& path)
{
    const std::string problem = outputPathProblem(path.toStdString());
    return problem.empty() ? QString()
                           : QStringLiteral("cannot write '%1': %2").arg(path, QString::fromStdString(problem));
}

QString exportFolderProblem(const QString& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target = fs::absolute(fs::path(dir.toStdString()), ec);
    // The export creates the folders that are missing: the nearest that exists must take the first.
    fs::path existing = target;
    fs::path created = target / "report.pdf";
    while (!fs::exists(existing, ec) && existing.has_parent_path() && existing.parent_path() != existing) {
        created = existing;
        existing = existing.parent_path();
    }
    const std::string problem
        = fs::is_directory(existing, ec) ? outputPathProblem(created.string()) : existing.string() + " is not a folder";
    return problem.empty() ? QString()
                           : QStringLiteral("cannot write into '%1': %2").arg(dir, QString::fromStdString(problem));
}

} // namespace synctax
