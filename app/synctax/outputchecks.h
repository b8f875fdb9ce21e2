#pragma once

#include <QSize>
#include <QString>

#include <optional>

namespace synctax {

// The command line's window size and outputs, checked before the window renders: a picture or an
// export that cannot be made stops at once with the reason, as synctax-run's outputs do.

// The smallest window the layout is drawn for, and the largest a picture can be taken of: a
// 32-bit image of 16384x16384 is already 1 GiB, and a larger grab fails or crashes.
inline constexpr int smallestWindowSide = 200;
inline constexpr int largestWindowSide = 16384;

// `text` as WIDTHxHEIGHT within those bounds; else nothing, and `problem` says why.
std::optional<QSize> parseWindowSize(const QString& text, QString* problem);

// Why each output cannot be written ("cannot write 'PATH': reason"); empty when it can.
QString screenshotProblem(const QString& path); // an image whose format its suffix names
QString outputFileProblem(const QString& path);
QString exportFolderProblem(const QString& dir); // the folder, or the nearest one above it that exists

} // namespace synctax
