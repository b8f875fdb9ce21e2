#include "ui/follow/followcompare.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMetaObject>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <tuple>

namespace synctax {

namespace {

QString ms(double v) { return QString::asprintf("%.4f", v); }

QString pct(double a, double b) { return a > 0 ? QString::asprintf("%+.1f%%", 100.0 * (b / a - 1.0)) : QString(); }

QString interval(const Interval& i, const char* format)
{
    return QString::asprintf(format, i.estimate) + QStringLiteral(" [") + QString::asprintf(format, i.low)
        + QStringLiteral(", ") + QString::asprintf(format, i.high) + QStringLiteral("]");
}

QString overlapVerdict(const Interval& a, const Interval& b)
{
    return a.high < b.low || b.high < a.low ? QStringLiteral("beyond noise") : QStringLiteral("within noise");
}

} // namespace

std::vector<FollowCompareRow> compareRuns(const FollowRun& a, const FollowRun& b)
{
    const FollowRun::Summary sa = a.summary();
    const FollowRun::Summary sb = b.summary();
    std::vector<FollowCompareRow> rows;
    rows.push_back({ QStringLiteral("measured steps"), QString::number(sa.steps), QString::number(sb.steps) });
    const auto median = [&rows](const QString& what, double x, double y) {
        rows.push_back({ what, ms(x), ms(y), pct(x, y) });
    };
    median(QStringLiteral("host step, median (ms)"), sa.hostMs, sb.hostMs);
    median(QStringLiteral("forward, own work (ms)"), sa.fMs, sb.fMs);
    median(QStringLiteral("backward, own work (ms)"), sa.bMs, sb.bMs);
    median(QStringLiteral("optimizer step, own work (ms)"), sa.oMs, sb.oMs);
    if (sa.gpuMs || sb.gpuMs)
        rows.push_back({ QStringLiteral("GPU per step, median (ms)"), sa.gpuMs ? ms(*sa.gpuMs) : QStringLiteral("-"),
            sb.gpuMs ? ms(*sb.gpuMs) : QStringLiteral("-"),
            sa.gpuMs && sb.gpuMs ? pct(*sa.gpuMs, *sb.gpuMs) : QString() });
    rows.push_back({ QStringLiteral("sync waits (ms per step)"), ms(sa.waitMsPerStep), ms(sb.waitMsPerStep),
        QString::asprintf("%+.4f ms", sb.waitMsPerStep - sa.waitMsPerStep) });
    rows.push_back({ QStringLiteral("syncs per step"), QString::asprintf("%.2f", sa.syncsPerStep),
        QString::asprintf("%.2f", sb.syncsPerStep), QString::asprintf("%+.2f", sb.syncsPerStep - sa.syncsPerStep) });
    if (sa.stepMs || sb.stepMs) {
        FollowCompareRow row { QStringLiteral("blocks' ms per step, 95%"),
            sa.stepMs ? interval(*sa.stepMs, "%.4f") : QStringLiteral("-"),
            sb.stepMs ? interval(*sb.stepMs, "%.4f") : QStringLiteral("-") };
        if (sa.stepMs && sb.stepMs) {
            row.change = pct(sa.stepMs->estimate, sb.stepMs->estimate);
            row.verdict = overlapVerdict(*sa.stepMs, *sb.stepMs);
        }
        rows.push_back(row);
    }
    const auto lastTax
        = [](const FollowRun& r) { return r.ab().empty() ? std::optional<Interval>() : r.ab().back().item; };
    const auto measured = [](const FollowRun& r) { return QString::fromStdString(r.abMeasureText()); };
    if (const auto ta = lastTax(a), tb = lastTax(b); ta || tb) {
        const bool same = !ta || !tb || measured(a) == measured(b);
        const QString what = !tb ? measured(a)
            : !ta                ? measured(b)
            : same               ? measured(a)
                                 : QStringLiteral("A/B (%1; %2)").arg(measured(a), measured(b));
        FollowCompareRow row { QStringLiteral("measured %1, 95%").arg(what),
            ta ? interval(*ta, "%+.1f%%") : QStringLiteral("-"), tb ? interval(*tb, "%+.1f%%") : QStringLiteral("-") };
        if (ta && tb && same) { // two measures of different things have no change between them
            row.change = QString::asprintf("%+.1f points", tb->estimate - ta->estimate);
            row.verdict = overlapVerdict(*ta, *tb);
        }
        rows.push_back(row);
    }
    // Each site by what it is in the code: its op at its line (ids differ from run to run).
    using Key = std::tuple<std::string, int, std::string>;
    std::map<Key, std::pair<double, double>> sites;
    const auto add = [&sites](const FollowRun& r, bool second) {
        const double steps = double(std::max<size_t>(1, r.stepCount()));
        for (const FollowSite& s : r.sites()) {
            auto& [x, y] = sites[Key { s.file, s.line, s.op }];
            (second ? y : x) += s.waitMs / steps;
        }
    };
    add(a, false);
    add(b, true);
    std::vector<std::pair<Key, std::pair<double, double>>> ordered(sites.begin(), sites.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) {
        return std::max(x.second.first, x.second.second) > std::max(y.second.first, y.second.second);
    });
    for (const auto& [key, waits] : ordered) {
        const auto& [file, line, op] = key;
        const QString where = file.empty() ? QStringLiteral("%1 (unnamed site)").arg(QString::fromStdString(op))
                                           : QStringLiteral("%1:%2 %3")
                                                 .arg(QFileInfo(QString::fromStdString(file)).fileName())
                                                 .arg(line)
                                                 .arg(QString::fromStdString(op));
        QString change = waits.first == 0 ? QStringLiteral("new in B")
            : waits.second == 0           ? QStringLiteral("gone in B")
                                          : pct(waits.first, waits.second);
        rows.push_back(
            { QStringLiteral("wait at %1 (ms per step)").arg(where), ms(waits.first), ms(waits.second), change });
    }
    return rows;
}

FollowCompareDialog::FollowCompareDialog(const FollowRun& a, const QString& dirA, const QString& dirB, QWidget* parent)
    : QDialog(parent)
    , m_status(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    setObjectName(QStringLiteral("followCompare"));
    setWindowTitle(tr("SyncTax — %1 against %2").arg(QFileInfo(dirA).fileName(), QFileInfo(dirB).fileName()));
    resize(980, 560);
    m_status->setWordWrap(true);
    m_status->setText(tr("Reading %1…").arg(QDir::toNativeSeparators(dirB)));
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels({ tr("what"), tr("A: %1").arg(QFileInfo(dirA).fileName()),
        tr("B: %1").arg(QFileInfo(dirB).fileName()), tr("B against A"), tr("beyond noise?") });
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    m_worker = std::thread([this, a, path = dirB.toStdString(), cancel = m_cancel] {
        const FollowRun b = readRunFolder(path, *cancel);
        QString error;
        std::vector<FollowCompareRow> rows;
        if (b.stepCount() == 0)
            error = tr("%1: no step read (not a probe run folder, or its job has not started)")
                        .arg(QString::fromStdString(path));
        else
            rows = compareRuns(a, b);
        if (*cancel)
            return;
        QMetaObject::invokeMethod(
            this, [this, rows = std::move(rows), error] { present(rows, error); }, Qt::QueuedConnection);
    });
}

FollowCompareDialog::~FollowCompareDialog()
{
    *m_cancel = true;
    if (m_worker.joinable())
        m_worker.join();
}

QString FollowCompareDialog::status() const { return m_status->text(); }

void FollowCompareDialog::present(std::vector<FollowCompareRow> rows, const QString& error)
{
    if (!error.isEmpty()) {
        m_status->setText(error);
        Q_EMIT comparisonFailed(error);
        return;
    }
    m_rows = std::move(rows);
    m_table->setRowCount(int(m_rows.size()));
    for (size_t r = 0; r < m_rows.size(); ++r) {
        const FollowCompareRow& row = m_rows[r];
        const QString cells[] = { row.what, row.a, row.b, row.change, row.verdict };
        for (int c = 0; c < 5; ++c)
            m_table->setItem(int(r), c, new QTableWidgetItem(cells[c]));
    }
    m_status->setText(tr("A is the run followed (as read so far), B the folder chosen. Intervals are 95%; where "
                         "two overlap, the difference is within noise."));
    m_ready = true;
    Q_EMIT comparisonAvailable();
}

} // namespace synctax
