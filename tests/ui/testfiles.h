#pragma once

#include <QImage>
#include <QPixmap>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

// Where a Qt test may write: its own temporary folders, never the user's.

// Settings, recent files and autosaved runs go to a temporary HOME, removed when the test exits
// (Qt's test mode alone would keep them in ~/.qttest). Call first thing in initTestCase().
inline void useTemporaryHome()
{
    static QTemporaryDir home;
    qputenv("HOME", QFile::encodeName(home.path()));
    for (const char* variable : { "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME" })
        qunsetenv(variable);
    QStandardPaths::setTestModeEnabled(true);
}

// A picture of a widget to look at: kept in SYNCTAX_SCREENSHOT_DIR when it is set; otherwise only
// checked to encode as a PNG. False when it cannot be written.
inline bool keepScreenshot(const QImage& image, const QString& name)
{
    if (image.isNull())
        return false;
    const QByteArray dir = qgetenv("SYNCTAX_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        return image.save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + name + QStringLiteral(".png"));
    QTemporaryDir scratch;
    return scratch.isValid() && image.save(scratch.filePath(name + QStringLiteral(".png")));
}

inline bool keepScreenshot(const QPixmap& pixmap, const QString& name)
{
    return keepScreenshot(pixmap.toImage(), name);
}
