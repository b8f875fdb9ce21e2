#include "ui/results/explanationpanel.h"

#include "core/analysis/explanation.h"
#include "core/text/format.h"

#include <QLabel>
#include <QVBoxLayout>

namespace synctax {

namespace {

QLabel* wrappedLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    // Results hold user-chosen names and error texts: never interpret them as markup.
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

} // namespace

ExplanationPanel::ExplanationPanel(QWidget* parent)
    : QWidget(parent)
    , m_title(wrappedLabel(this))
    , m_heading(wrappedLabel(this))
    , m_explanation(wrappedLabel(this))
    , m_numbers(wrappedLabel(this))
{
    QFont headingFont = m_heading->font();
    headingFont.setBold(true);
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.25);
    m_heading->setFont(headingFont);
    QFont smallFont = m_numbers->font();
    smallFont.setPointSizeF(smallFont.pointSizeF() * 0.9);
    m_numbers->setFont(smallFont);
    m_title->setFont(smallFont);
    m_numbers->setForegroundRole(QPalette::PlaceholderText);
    m_title->setForegroundRole(QPalette::PlaceholderText);
    m_numbers->setToolTip(tr("D: host time to dispatch one step · G: GPU time of one step · L: item() round trip "
                             "on an idle GPU · K: kernel launches per step · H: configured host work per step"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_heading);
    layout->addWidget(m_explanation);
    layout->addWidget(m_numbers);
    layout->addStretch(1);
    refresh();
}

void ExplanationPanel::setResult(const ExperimentResult& result)
{
    m_result = result;
    refresh();
}

void ExplanationPanel::setGroup(const GroupKey& group)
{
    m_group = group;
    refresh();
}

QString ExplanationPanel::titleText() const { return m_title->text(); }
QString ExplanationPanel::headingText() const { return m_heading->text(); }
QString ExplanationPanel::explanationText() const { return m_explanation->text(); }
QString ExplanationPanel::numbersText() const { return m_numbers->text(); }

void ExplanationPanel::refresh()
{
    const GroupResult* group = nullptr;
    for (const auto& g : m_result.groups) {
        if (m_group && groupKeyOf(g) == *m_group) {
            group = &g;
            break;
        }
    }
    if (!group && !m_result.groups.empty())
        group = &m_result.groups.front();
    if (!group) {
        m_title->clear();
        m_heading->setText(tr("No result yet"));
        m_explanation->setText(
            tr("Run an experiment or open a results file to see why its syncs cost what they cost."));
        m_numbers->clear();
        m_numbers->hide();
        return;
    }
    m_title->setText(QString::fromStdString(
        group->model + " · " + group->mode + sweepPointSuffix(sweptKeys(m_result.config), *group)));
    m_heading->setText(QString::fromStdString(regimeTitle(group->regime)));
    // The heading already names the regime; the sentences need not repeat it.
    QString text = QString::fromStdString(explainGroup(*group, m_result.cells));
    const QString prefix = m_heading->text() + QStringLiteral(": ");
    if (text.startsWith(prefix) && text.size() > prefix.size()) {
        text.remove(0, prefix.size());
        text[0] = text[0].toUpper();
    }
    m_explanation->setText(text);
    const QString numbers = QString::fromStdString(regimeNumbers(groupRegime(*group)));
    m_numbers->setText(numbers);
    m_numbers->setVisible(!numbers.isEmpty());
}

} // namespace synctax
