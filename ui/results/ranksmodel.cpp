#include "ui/results/ranksmodel.h"

#include "core/config/stylecatalog.h"
#include "core/text/format.h"
#include "ui/results/comparisonmodel.h"

#include <QColor>

#include <algorithm>
#include <cmath>

namespace synctax {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString taxText(const CellResult* c)
{
    if (!c)
        return {};
    if (!c->ok)
        return QStringLiteral("failed");
    if (c->style == baselineStyle())
        return QStringLiteral("baseline");
    QString text = c->overheadPct ? qs(formatOverhead(*c->overheadPct)) : QStringLiteral("—");
    // The barrier replay's tax beside the measured one, as the runner's `pred` column.
    if (c->rankPrediction)
        text += QStringLiteral("  pred ") + qs(formatNumber("%+.1f%%", c->rankPrediction->tax.overheadPct));
    return text;
}

QString rankStatus(const RankOutcome& r)
{
    QString text = QStringLiteral("rank %1: %2").arg(r.rank).arg(qs(r.status));
    if (!r.message.empty())
        text += QStringLiteral(" (") + qs(r.message) + QLatin1Char(')');
    return text;
}

} // namespace

RanksModel::RanksModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RanksModel::setResult(const ExperimentResult& result)
{
    // The window passes every live snapshot of a run in one process: nothing to reset then.
    const bool ranked = result.distributed && result.distributed->rank < 0;
    if (!ranked && m_rows.empty() && m_ranks.empty())
        return;
    beginResetModel();
    m_rows.clear();
    m_ranks.clear();
    m_single.clear();
    m_swept = sweptKeys(result.config);
    m_manyModes = false;
    // A rank's own results.json (rank >= 0) holds only its cells: the launcher's shows them all.
    if (ranked) {
        m_ranks = result.distributed->ranks;
        std::stable_sort(
            m_ranks.begin(), m_ranks.end(), [](const RankOutcome& a, const RankOutcome& b) { return a.rank < b.rank; });
        m_single = result.distributed->singleProcess;
        // Rows in the order the runs measured them, rank 0's first.
        const auto add = [this](const CellResult& c) {
            const Row row { groupKeyOf(c), c.style };
            if (std::none_of(m_rows.begin(), m_rows.end(),
                    [&](const Row& r) { return r.group == row.group && r.style == row.style; }))
                m_rows.push_back(row);
        };
        for (const RankOutcome& r : m_ranks)
            std::for_each(r.cells.begin(), r.cells.end(), add);
        std::for_each(m_single.begin(), m_single.end(), add);
        m_manyModes = std::any_of(
            m_rows.begin(), m_rows.end(), [this](const Row& r) { return r.group.mode != m_rows.front().group.mode; });
    }
    endResetModel();
}

void RanksModel::clear() { setResult({}); }

int RanksModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int RanksModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_rows.empty() ? 0 : leadingColumns + 2 * int(m_ranks.size()) + 1;
}

int RanksModel::taxColumn(int rankIndex) const
{
    return rankIndex >= 0 && rankIndex < rankCount() ? leadingColumns + 2 * rankIndex : -1;
}

int RanksModel::waitColumn(int rankIndex) const
{
    return rankIndex >= 0 && rankIndex < rankCount() ? leadingColumns + 2 * rankIndex + 1 : -1;
}

int RanksModel::singleProcessColumn() const { return leadingColumns + 2 * rankCount(); }

const CellResult* RanksModel::cellOf(
    const std::vector<CellResult>& cells, const GroupKey& group, const std::string& style) const
{
    const auto it = std::find_if(
        cells.begin(), cells.end(), [&](const CellResult& c) { return groupKeyOf(c) == group && c.style == style; });
    return it == cells.end() ? nullptr : &*it;
}

const CellResult* RanksModel::rankCell(int row, int rankIndex) const
{
    if (row < 0 || row >= rowCount() || rankIndex < 0 || rankIndex >= rankCount())
        return nullptr;
    const Row& r = m_rows[size_t(row)];
    return cellOf(m_ranks[size_t(rankIndex)].cells, r.group, r.style);
}

std::optional<double> RanksModel::extraWaitMs(int row, int rankIndex) const
{
    const CellResult* c = rankCell(row, rankIndex);
    if (!c || !c->ok || !c->collectiveWaitMs)
        return std::nullopt;
    const CellResult* base = cellOf(m_ranks[size_t(rankIndex)].cells, m_rows[size_t(row)].group, baselineStyle());
    if (!base || !base->ok || !base->collectiveWaitMs)
        return std::nullopt;
    return c->collectiveWaitMs->median - base->collectiveWaitMs->median;
}

QString RanksModel::rowName(int row) const
{
    const Row& r = m_rows[size_t(row)];
    return qs(r.group.model + sweepPointSuffix(m_swept, r.group.hostWorkUs, r.group.batch) + " · " + r.group.mode
        + " · " + r.style);
}

QString RanksModel::groupName(const GroupKey& g) const
{
    const std::string point = sweepPointSuffix(m_swept, g.hostWorkUs, g.batch);
    return qs(m_manyModes ? g.model + " (" + g.mode + ")" + point : g.model + point);
}

QString RanksModel::statusText() const
{
    QStringList parts;
    for (const RankOutcome& r : m_ranks)
        parts << rankStatus(r);
    return parts.join(QStringLiteral(" · "));
}

int RanksModel::worstRow() const
{
    // The style that costs rank 0 the most, among those with a measured tax there; the controls
    // (aa_control, none_no_events) log nothing, so whatever they measure is noise.
    int worst = -1;
    for (int row = 0; row < rowCount(); ++row) {
        const CellResult* c = rankCell(row, 0);
        if (c && c->ok && c->style != baselineStyle() && !isControlStyle(c->style) && c->overheadPct
            && (worst < 0 || c->overheadPct->estimate > rankCell(worst, 0)->overheadPct->estimate))
            worst = row;
    }
    return worst;
}

QString RanksModel::spreadText() const
{
    if (m_ranks.size() < 2)
        return {};
    const int worst = worstRow();
    if (worst < 0)
        return {};
    QStringList others;
    for (int i = 1; i < rankCount(); ++i) {
        const std::optional<double> extra = extraWaitMs(worst, i);
        if (!extra)
            continue;
        const double wait = rankCell(worst, i)->collectiveWaitMs->median;
        others << tr("rank %1 waits %2 ms per step in the all-reduce, %3 ms %4 than under %5")
                      .arg(m_ranks[size_t(i)].rank)
                      .arg(qs(formatNumber("%.3f", wait)), qs(formatNumber("%.3f", std::abs(*extra))),
                          *extra >= 0 ? tr("more") : tr("less"), qs(baselineStyle()));
    }
    if (others.isEmpty())
        return {};
    const CellResult& c = *rankCell(worst, 0);
    return tr("%1 costs rank %2 %3 on %4 (%5); %6.")
        .arg(qs(c.style))
        .arg(m_ranks[0].rank)
        .arg(qs(formatOverhead(*c.overheadPct)), qs(c.model), qs(c.mode), others.join(QStringLiteral("; ")));
}

QVariant RanksModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    const Row& r = m_rows[size_t(row)];
    if (column < leadingColumns) {
        if (role != Qt::DisplayRole && role != SortRole)
            return {};
        return column == 0 ? groupName(r.group) : qs(r.style);
    }
    const bool single = column == singleProcessColumn();
    const int rankIndex = (column - leadingColumns) / 2;
    const bool wait = !single && (column - leadingColumns) % 2 == 1;
    const CellResult* c = single ? cellOf(m_single, r.group, r.style) : rankCell(row, rankIndex);
    if (!c)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        if (!wait)
            return taxText(c);
        return c->collectiveWaitMs ? qs(formatNumber("%.3f", c->collectiveWaitMs->median)) + QStringLiteral(" ms")
                                   : QStringLiteral("—");
    case SortRole:
        if (!wait)
            return ComparisonModel::overheadSortValue(*c);
        return c->collectiveWaitMs ? QVariant(c->collectiveWaitMs->median) : QVariant();
    case Qt::ToolTipRole: {
        QString tip = rowName(row) + QLatin1Char('\n')
            + (single ? tr("in one process") : rankStatus(m_ranks[size_t(rankIndex)]));
        if (!c->ok)
            return tip + QStringLiteral("\nfailed: ") + qs(c->error);
        if (c->stepsMeasured > 0)
            tip += tr("\nstep: median %1 ms").arg(qs(formatNumber("%.3f", c->stepMs.median)));
        if (c->collectiveWaitMs)
            tip += tr("\nall-reduce wait: median %1 ms (p10 %2, p90 %3)")
                       .arg(qs(formatNumber("%.3f", c->collectiveWaitMs->median)),
                           qs(formatNumber("%.3f", c->collectiveWaitMs->p10)),
                           qs(formatNumber("%.3f", c->collectiveWaitMs->p90)));
        if (const std::optional<double> extra = single ? std::nullopt : extraWaitMs(row, rankIndex);
            extra && c->style != baselineStyle())
            tip += tr("\n%1 ms against this rank's wait under %2")
                       .arg(qs(formatNumber("%+.3f", *extra)), qs(baselineStyle()));
        if (const auto& p = c->rankPrediction) {
            tip += tr("\npredicted (%1 model's barrier replay): step %2 ms, all-reduce wait %3 ms, tax %4")
                       .arg(qs(p->tax.model), qs(formatNumber("%.3f", p->stepMs)),
                           qs(formatNumber("%.3f", p->collectiveWaitMs)),
                           qs(formatNumber("%+.1f%%", p->tax.overheadPct)));
        }
        return tip;
    }
    case Qt::ForegroundRole:
        return c->ok ? QVariant() : QVariant(QColor(Qt::darkRed));
    case Qt::FontRole:
        return ComparisonModel::numberFont();
    default:
        return {};
    }
}

QVariant RanksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section < leadingColumns) {
        static const char* const names[] = { "model", "style" };
        return role == Qt::DisplayRole ? QVariant(QString::fromLatin1(names[section])) : QVariant();
    }
    if (section == singleProcessColumn()) {
        if (role == Qt::DisplayRole)
            return tr("single-process tax");
        if (role == Qt::ToolTipRole)
            return tr("The same model and style run in one process, against its baseline (95% CI)");
        return {};
    }
    const RankOutcome& r = m_ranks[size_t((section - leadingColumns) / 2)];
    const bool wait = (section - leadingColumns) % 2 == 1;
    if (role == Qt::DisplayRole)
        return wait ? tr("rank %1 wait").arg(r.rank) : tr("rank %1 tax").arg(r.rank);
    if (role == Qt::ToolTipRole) {
        return rankStatus(r) + QLatin1Char('\n')
            + (wait ? tr("median host time per step blocked in the gradient all-reduce")
                    : tr("tax against %1 on this rank (95% CI)").arg(qs(baselineStyle())));
    }
    return {};
}

} // namespace synctax
