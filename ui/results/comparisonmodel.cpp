#include "ui/results/comparisonmodel.h"

#include "core/analysis/explanation.h"
#include "core/config/stylecatalog.h"
#include "core/results/resulttable.h"
#include "core/text/format.h"

#include <QColor>
#include <QFontDatabase>

#include <algorithm>
#include <map>
#include <set>

namespace synctax {

namespace {

// The controls lead, then the catalog's order; styles the catalog does not know come last.
int styleRank(const std::string& style)
{
    if (style == baselineStyle())
        return 0;
    if (style == aaControlStyle())
        return 1;
    if (style == observerControlStyle())
        return 2;
    const auto& catalog = styleCatalog();
    for (size_t i = 0; i < catalog.size(); ++i) {
        if (catalog[i].name == style)
            return 3 + int(i);
    }
    return 3 + int(catalog.size());
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString ms(double v) { return qs(formatMs(v)) + QStringLiteral(" ms"); }

} // namespace

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ComparisonModel::setResult(const ExperimentResult& result)
{
    std::vector<std::string> styles;
    std::vector<GroupKey> groups;
    std::set<std::string> modes;
    const auto addGroup = [&](const GroupKey& g) {
        if (std::find(groups.begin(), groups.end(), g) == groups.end())
            groups.push_back(g);
        modes.insert(g.mode);
    };
    for (const auto& g : result.groups)
        addGroup(groupKeyOf(g));
    for (const auto& c : result.cells) {
        addGroup(groupKeyOf(c));
        if (std::find(styles.begin(), styles.end(), c.style) == styles.end())
            styles.push_back(c.style);
    }
    std::stable_sort(styles.begin(), styles.end(),
        [](const std::string& a, const std::string& b) { return styleRank(a) < styleRank(b); });
    const bool manyModes = modes.size() > 1;

    std::vector<std::vector<int>> cellIndex(styles.size(), std::vector<int>(groups.size(), -1));
    for (size_t i = 0; i < result.cells.size(); ++i) {
        const CellResult& c = result.cells[i];
        const auto row = std::find(styles.begin(), styles.end(), c.style) - styles.begin();
        const auto column = std::find(groups.begin(), groups.end(), groupKeyOf(c)) - groups.begin();
        cellIndex[size_t(row)][size_t(column)] = int(i);
    }

    const SweptKeys swept = sweptKeys(result.config);
    const bool sameShape = styles == m_styles && groups == m_groups && manyModes == m_manyModes
        && swept.hostWork == m_swept.hostWork && swept.batch == m_swept.batch;
    if (!sameShape)
        beginResetModel();
    m_styles = std::move(styles);
    m_groups = std::move(groups);
    m_manyModes = manyModes;
    m_swept = swept;
    m_cells = result.cells;
    m_groupResults = result.groups;
    m_cellIndex = std::move(cellIndex);
    if (!sameShape) {
        endResetModel();
        return;
    }
    if (rowCount() > 0 && columnCount() > 1)
        Q_EMIT dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1));
    if (columnCount() > 1)
        Q_EMIT headerDataChanged(Qt::Horizontal, 1, columnCount() - 1);
}

void ComparisonModel::clear() { setResult({}); }

int ComparisonModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_styles.size()); }

int ComparisonModel::columnCount(const QModelIndex& parent) const
{
    // Without styles there is nothing to show, not even the style column.
    return parent.isValid() || m_styles.empty() ? 0 : 1 + int(m_groups.size());
}

QString ComparisonModel::modelOfColumn(int column) const
{
    return column >= 1 && column <= int(m_groups.size()) ? qs(m_groups[size_t(column - 1)].model) : QString();
}

QString ComparisonModel::modeOfColumn(int column) const
{
    return column >= 1 && column <= int(m_groups.size()) ? qs(m_groups[size_t(column - 1)].mode) : QString();
}

GroupKey ComparisonModel::groupKeyOfColumn(int column) const
{
    return column >= 1 && column <= int(m_groups.size()) ? m_groups[size_t(column - 1)] : GroupKey {};
}

QString ComparisonModel::groupName(const GroupKey& g) const
{
    return qs((m_manyModes ? g.model + " (" + g.mode + ")" : g.model) + sweepPointSuffix(m_swept, g));
}

QString ComparisonModel::styleOfRow(int row) const
{
    return row >= 0 && row < int(m_styles.size()) ? qs(m_styles[size_t(row)]) : QString();
}

const CellResult* ComparisonModel::cellAt(int row, int column) const
{
    if (row < 0 || row >= int(m_styles.size()) || column < 1 || column > int(m_groups.size()))
        return nullptr;
    const int i = m_cellIndex[size_t(row)][size_t(column - 1)];
    return i < 0 ? nullptr : &m_cells[size_t(i)];
}

const GroupResult* ComparisonModel::groupOfColumn(int column) const
{
    if (column < 1 || column > int(m_groups.size()))
        return nullptr;
    return findGroup(m_groups[size_t(column - 1)]);
}

const GroupResult* ComparisonModel::findGroup(const GroupKey& key) const
{
    for (const auto& r : m_groupResults) {
        if (groupKeyOf(r) == key)
            return &r;
    }
    return nullptr;
}

QString ComparisonModel::cellText(const CellResult& c) const
{
    if (!c.ok)
        return QStringLiteral("failed");
    if (c.stepsMeasured == 0)
        return QStringLiteral("—");
    QString time = ms(c.stepMs.mean);
    if (c.style == baselineStyle())
        return time + QStringLiteral("  baseline");
    if (!c.overheadPct)
        return time;
    // The overhead alone: it is paired round by round with the baseline, so a style's own mean
    // beside it could read the other way (its tooltip has the mean); and three models fit beside
    // the charts.
    QString text = qs(formatOverhead(*c.overheadPct));
    if (m_showPredictions && c.prediction)
        text += QString::asprintf("  pred %+.1f%%", c.prediction->overheadPct);
    return text;
}

void ComparisonModel::setShowPredictions(bool show)
{
    if (show == m_showPredictions)
        return;
    m_showPredictions = show;
    if (rowCount() > 0 && columnCount() > 1)
        Q_EMIT dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1), { Qt::DisplayRole });
}

QString ComparisonModel::cellToolTip(const CellResult& c) const
{
    QStringList lines;
    lines << qs(c.model + " · " + c.mode + " · " + c.style + sweepPointSuffix(m_swept, c));
    if (!c.ok) {
        lines << QStringLiteral("failed: ") + qs(c.error);
        return lines.join(QLatin1Char('\n'));
    }
    if (c.stepsMeasured > 0) {
        lines << QStringLiteral("step: mean %1, median %2 (p10 %3, p90 %4)")
                     .arg(ms(c.stepMs.mean), ms(c.stepMs.median), ms(c.stepMs.p10), ms(c.stepMs.p90));
    }
    lines << QStringLiteral("%1 steps measured in %2 blocks").arg(c.stepsMeasured).arg(c.blockRounds.size());
    if (c.style != baselineStyle())
        lines << QStringLiteral("rounds paired with the baseline: %1").arg(c.pairedRounds);
    if (c.overheadPct)
        lines << QStringLiteral("overhead: ") + qs(formatOverhead(*c.overheadPct)) + QStringLiteral(" (95% CI)");
    if (c.verdict)
        lines << QStringLiteral("verdict: ") + QString::fromLatin1(toString(*c.verdict));
    if (const GroupResult* group = findGroup(groupKeyOf(c));
        group && tooNoisy(group->noiseVerdict) && c.style != baselineStyle())
        lines << QStringLiteral("not a finding: the model is too noisy to tell styles apart");
    if (c.naiveBestOfPct)
        lines << QStringLiteral("naive best-of: %1%").arg(*c.naiveBestOfPct, 0, 'f', 1);
    if (c.prediction)
        lines << QString::asprintf("queue model predicts: %+.1f%% (", c.prediction->overheadPct)
                + qs(c.prediction->regime) + QLatin1Char(')');
    if (c.syncsPerStep)
        lines << QStringLiteral("syncs/step: %1").arg(*c.syncsPerStep, 0, 'f', 2);
    if (c.queue) {
        lines << QStringLiteral("queue: median %1 steps (max %2), lag %3")
                     .arg(c.queue->medianQueueSteps, 0, 'f', 1)
                     .arg(c.queue->maxQueueSteps)
                     .arg(ms(c.queue->medianLagMs));
    }
    if (c.lowClockBlocks > 0)
        lines << QStringLiteral("%1 blocks ran with the SM clock under 75% of its default").arg(c.lowClockBlocks);
    if (c.graphReplays >= 0)
        lines << QStringLiteral("CUDA graph replays: %1").arg(c.graphReplays);
    return lines.join(QLatin1Char('\n'));
}

// Compare's convention: noise is grey, a slowdown red by size, a speed-up green.
QColor ComparisonModel::colour(Shade shade)
{
    switch (shade) {
    case Shade::MuchSlower:
        return QColor(0xe5, 0x73, 0x73);
    case Shade::Slower:
        return QColor(0xf5, 0xab, 0xab);
    case Shade::SlightlySlower:
        return QColor(0xfd, 0xe0, 0xe0);
    case Shade::SlightlyFaster:
        return QColor(0xdc, 0xf0, 0xdc);
    case Shade::Faster:
        return QColor(0xa5, 0xd6, 0xa7);
    case Shade::WithinNoise:
        return QColor(0xe4, 0xe4, 0xe4);
    case Shade::Failed:
        return QColor(0x30, 0x30, 0x30);
    }
    return {};
}

QString ComparisonModel::meaning(Shade shade)
{
    switch (shade) {
    case Shade::MuchSlower:
        return tr("slower by 5% or more");
    case Shade::Slower:
        return tr("slower by 2-5%");
    case Shade::SlightlySlower:
        return tr("slower by under 2%");
    case Shade::SlightlyFaster:
        return tr("faster by under 2%");
    case Shade::Faster:
        return tr("faster by 2% or more");
    case Shade::WithinNoise:
        return tr("within noise, or the model is too noisy to tell styles apart");
    case Shade::Failed:
        return tr("failed");
    }
    return {};
}

QList<ComparisonModel::Shade> ComparisonModel::legend()
{
    return { Shade::MuchSlower, Shade::Slower, Shade::SlightlySlower, Shade::SlightlyFaster, Shade::Faster,
        Shade::WithinNoise, Shade::Failed };
}

std::optional<ComparisonModel::Shade> ComparisonModel::cellShade(const CellResult& c) const
{
    if (!c.ok)
        return Shade::Failed;
    if (!c.verdict || *c.verdict == Verdict::Baseline || !c.overheadPct)
        return std::nullopt;
    // A too noisy model has no findings, whatever each interval says on its own.
    const GroupResult* group = findGroup(groupKeyOf(c));
    if (*c.verdict == Verdict::WithinNoise || (group && tooNoisy(group->noiseVerdict)))
        return Shade::WithinNoise;
    const double pct = c.overheadPct->estimate;
    if (pct >= 5)
        return Shade::MuchSlower;
    if (pct >= 2)
        return Shade::Slower;
    if (pct >= 0)
        return Shade::SlightlySlower;
    return pct <= -2 ? Shade::Faster : Shade::SlightlyFaster;
}

QString ComparisonModel::noiseWarning() const
{
    QStringList groups;
    for (const GroupKey& g : m_groups) {
        const GroupResult* r = findGroup(g);
        if (!r || !tooNoisy(r->noiseVerdict))
            continue;
        QStringList reasons;
        for (const auto& reason : noiseReasons(*r))
            reasons << qs(reason);
        groups << groupName(g) + QStringLiteral(": ") + reasons.join(QStringLiteral("; "));
    }
    if (groups.isEmpty())
        return {};
    return tr("Too noisy to tell styles apart, so no cell is coloured as a finding. %1. The A/A control runs the "
              "same loop twice; more rounds or a quieter machine narrow the noise.")
        .arg(groups.join(QStringLiteral(". ")));
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return styleOfRow(row);
        case Qt::ToolTipRole:
            if (auto info = findStyle(m_styles[size_t(row)]))
                return qs(info->summary);
            return {};
        case SortRole:
            return styleRank(m_styles[size_t(row)]);
        default:
            return {};
        }
    }
    const CellResult* c = cellAt(row, index.column());
    if (!c)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return cellText(*c);
    case Qt::ToolTipRole:
        return cellToolTip(*c);
    case SortRole:
        return overheadSortValue(*c);
    case Qt::BackgroundRole:
        if (const auto shade = cellShade(*c))
            return colour(*shade);
        return {};
    case Qt::ForegroundRole:
        return c->ok ? QVariant() : QVariant(QColor(Qt::white));
    case Qt::FontRole:
        return numberFont();
    default:
        return {};
    }
}

QVariant ComparisonModel::overheadSortValue(const CellResult& c)
{
    if (!c.ok)
        return {};
    if (c.style == baselineStyle())
        return 0.0;
    return c.overheadPct ? QVariant(c.overheadPct->estimate) : QVariant();
}

QFont ComparisonModel::numberFont()
{
    // Fixed width keeps the digits of a column aligned; a point smaller, because monospace runs
    // wide and three models (or two ranks) should fit beside the charts.
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(font.pointSizeF() - 1);
    return font;
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("style")) : QVariant();
    const GroupKey& g = m_groups[size_t(section - 1)];
    if (role == Qt::DisplayRole)
        return groupName(g);
    if (role == Qt::ToolTipRole) {
        const GroupResult* r = groupOfColumn(section);
        if (!r)
            return {};
        QString tip = qs(g.model + " · " + g.mode + sweepPointSuffix(m_swept, g) + ": " + regimeTitle(r->regime));
        if (r->regime.available)
            tip += QLatin1Char('\n') + qs(regimeNumbers(groupRegime(*r)));
        tip += QStringLiteral("\n%1 rounds, noise floor %2%").arg(r->rounds).arg(r->noiseFloorPct, 0, 'f', 1);
        if (!r->stopReason.empty())
            tip += QStringLiteral(" (stopped: ") + qs(r->stopReason) + QLatin1Char(')');
        for (const auto& reason : noiseReasons(*r))
            tip += QStringLiteral("\ntoo noisy to tell styles apart: ") + qs(reason);
        return tip;
    }
    return {};
}

QString ComparisonModel::toTsv(const QAbstractItemModel* model, const QModelIndexList& selection)
{
    std::set<int> rows;
    std::set<int> columns;
    std::map<std::pair<int, int>, QString> texts;
    const auto clean = [](QString s) {
        return s.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    for (const QModelIndex& i : selection) {
        if (!i.isValid() || i.model() != model)
            continue;
        rows.insert(i.row());
        columns.insert(i.column());
        texts[{ i.row(), i.column() }] = clean(i.data(Qt::DisplayRole).toString());
    }
    if (rows.empty())
        return {};
    columns.erase(0); // the style always leads each line

    QStringList header { clean(model->headerData(0, Qt::Horizontal).toString()) };
    for (int c : columns)
        header << clean(model->headerData(c, Qt::Horizontal).toString());
    QStringList lines { header.join(QLatin1Char('\t')) };
    for (int r : rows) {
        QStringList fields { clean(model->index(r, 0).data().toString()) };
        for (int c : columns) {
            auto it = texts.find({ r, c });
            fields << (it == texts.end() ? QString() : it->second);
        }
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString ComparisonModel::toTsv(const QModelIndexList& selection) const { return toTsv(this, selection); }

} // namespace synctax
