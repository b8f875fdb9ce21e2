#pragma once

#include "core/analysis/experimentresult.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace synctax {

// Why the syncs of one model and mode (at one point of a sweep) cost what they cost: its regime
// as a heading, the sentences of explainGroup() and the measured D, G, L, K, H. Word-wrapped to
// fit a narrow dock.
class ExplanationPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplanationPanel(QWidget* parent = nullptr);

    // Keeps the chosen group across results; shows the first group until one is chosen or when the
    // chosen one is not in the result.
    void setResult(const ExperimentResult& result);
    void setGroup(const GroupKey& group);

    QString titleText() const;
    QString headingText() const;
    QString explanationText() const;
    QString numbersText() const;

private:
    void refresh();

    ExperimentResult m_result;
    std::optional<GroupKey> m_group;
    QLabel* m_title;
    QLabel* m_heading;
    QLabel* m_explanation;
    QLabel* m_numbers;
};

} // namespace synctax
