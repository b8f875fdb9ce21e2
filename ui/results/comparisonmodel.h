#pragma once

#include "core/analysis/experimentresult.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QFont>
#include <QList>
#include <QString>

#include <optional>

#include <vector>

namespace synctax {

// The result as torch.utils.benchmark's Compare shows it: one row per style (the baseline first,
// then the A/A control, then the catalog's order), one column per model and mode (and point of a
// sweep: "resnet50 h=15 ms"), each cell the step time and the overhead against the baseline,
// coloured by verdict and size (shade()). A model
// and mode too noisy to tell styles apart (noiseverdict.h) colours no cell as a finding.
// Column 0 holds the style name, so that a sort or a copy keeps it with its row.
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Numeric value to sort by: the overhead estimate in percent (0 for the baseline), the catalog
    // position for the style column; invalid when there is no number.
    static constexpr int SortRole = Qt::UserRole;

    // What a cell's background says; legend() lists them in the order a legend shows them.
    enum class Shade { MuchSlower, Slower, SlightlySlower, SlightlyFaster, Faster, WithinNoise, Failed };
    static QColor colour(Shade shade);
    static QString meaning(Shade shade);
    static QList<Shade> legend();
    // What SortRole holds for a cell: its overhead estimate in percent, 0 for the baseline, invalid
    // for a failed cell or one without an interval (the Ranks table sorts its taxes the same way).
    static QVariant overheadSortValue(const CellResult& cell);
    // The font of the tables' numbers: fixed width, a point smaller than the text around it.
    static QFont numberFont();

    explicit ComparisonModel(QObject* parent = nullptr);

    // Takes a final result or a live partial snapshot. When the rows and columns stay the same only
    // dataChanged is emitted, so that views keep their selection and scroll position.
    void setResult(const ExperimentResult& result);
    void clear();
    // Adds the queue model's prediction beside each measured overhead ("pred +1.3%").
    void setShowPredictions(bool show);
    bool showPredictions() const { return m_showPredictions; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The model and mode of a column; empty strings for the style column or out of range.
    QString modelOfColumn(int column) const;
    QString modeOfColumn(int column) const;
    // The whole group of a column (its model and mode at one host work and batch); empty out of range.
    GroupKey groupKeyOfColumn(int column) const;
    QString styleOfRow(int row) const;

    // Which models and modes are too noisy to tell styles apart and why, in a sentence for a banner;
    // empty when none is.
    QString noiseWarning() const;

    // The selected cells as tab-separated text, header line first, in the order of `model`'s rows
    // and columns (pass the proxy a view shows, so the copy follows its sort). The style name leads
    // each line even when its column is not selected. Works on any table model.
    static QString toTsv(const QAbstractItemModel* model, const QModelIndexList& selection);
    QString toTsv(const QModelIndexList& selection) const;

private:
    const CellResult* cellAt(int row, int column) const;
    const GroupResult* groupOfColumn(int column) const;
    const GroupResult* findGroup(const GroupKey& key) const;
    // A column's header: the model, "(mode)" when the result has several, then the sweep's point.
    QString groupName(const GroupKey& g) const;
    QString cellText(const CellResult& cell) const;
    QString cellToolTip(const CellResult& cell) const;
    std::optional<Shade> cellShade(const CellResult& cell) const;

    std::vector<std::string> m_styles;
    std::vector<GroupKey> m_groups;
    bool m_manyModes = false;
    SweptKeys m_swept; // what tells a swept run's groups of one model and mode apart
    bool m_showPredictions = false;
    std::vector<CellResult> m_cells;
    std::vector<GroupResult> m_groupResults;
    std::vector<std::vector<int>> m_cellIndex; // [row][group] -> index in m_cells, -1 when absent
};

} // namespace synctax
