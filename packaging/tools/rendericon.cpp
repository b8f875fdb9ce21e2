// synctax-rendericon: renders the app's SVG icon to the PNG sizes of the hicolor theme. The PNGs
// are committed, so a build needs no SVG converter; run the `regenerate-icons` target after
// editing the SVG.
#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QStringList>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 4) {
        std::fprintf(stderr,
            "usage: synctax-rendericon ICON.svg OUTDIR SIZE...\n"
            "writes OUTDIR/<basename>-SIZE.png for each SIZE\n");
        return 2;
    }
    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "synctax-rendericon: cannot read %s\n", qPrintable(args.at(1)));
        return 1;
    }
    QString baseName = args.at(1).section(QLatin1Char('/'), -1);
    baseName.chop(4);
    for (qsizetype i = 3; i < args.size(); ++i) {
        bool ok = false;
        const int size = args.at(i).toInt(&ok);
        if (!ok || size <= 0) {
            std::fprintf(stderr, "synctax-rendericon: bad size '%s'\n", qPrintable(args.at(i)));
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            renderer.render(&painter);
        }
        const QString path = QStringLiteral("%1/%2-%3.png").arg(args.at(2), baseName).arg(size);
        if (!image.save(path, "PNG")) {
            std::fprintf(stderr, "synctax-rendericon: cannot write %s\n", qPrintable(path));
            return 1;
        }
        std::printf("%s\n", qPrintable(path));
    }
    return 0;
}
