#include "ui/results/comparisonview.h"

#include "ui/results/comparisonmodel.h"

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSortFilterProxyModel>

#include <algorithm>

namespace synctax {

namespace {

QString swatch(ComparisonModel::Shade shade)
{
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
        .arg(ComparisonModel::colour(shade).name(), ComparisonModel::meaning(shade).toHtmlEscaped());
}

// Every shade the model can give a cell, from ComparisonModel::legend(), and what a colour does not say.
QString legendHtml()
{
    QStringList findings;
    QStringList others;
    for (ComparisonModel::Shade shade : ComparisonModel::legend()) {
        const bool finding = shade != ComparisonModel::Shade::WithinNoise && shade != ComparisonModel::Shade::Failed;
        (finding ? findings : others) << swatch(shade);
    }
    const QString gap = QStringLiteral(" &nbsp; ");
    return ComparisonView::tr("<b>Significant</b> (the 95% interval excludes 0 and the estimate clears the A/A "
                              "noise floor): %1<br>%2 &nbsp; Uncoloured: the baseline, or no interval yet.<br>A "
                              "logging style only adds work to the loop, so a significant speed-up most likely "
                              "is noise the interval missed.")
        .arg(findings.join(gap), others.join(gap));
}

QLabel* noteLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setContentsMargins(6, 3, 6, 3);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent)
    : QTableView(parent)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_copyAction(new QAction(tr("Copy"), this))
    , m_banner(noteLabel(this))
    , m_legend(noteLabel(this))
{
    m_banner->setObjectName(QStringLiteral("noiseBanner"));
    // Model names come from the results file: never read them as markup.
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setAutoFillBackground(true);
    QPalette warning = m_banner->palette();
    warning.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xce));
    warning.setColor(QPalette::WindowText, QColor(0x5c, 0x44, 0x00));
    m_banner->setPalette(warning);
    m_banner->hide();
    m_legend->setObjectName(QStringLiteral("colourLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setText(legendHtml());
    QFont small = m_legend->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_legend->setFont(small);
    // The legend takes the viewport's bottom edge; per-pixel scrolling lets updateGeometries size the
    // scroll range for what is left.
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);

    m_proxy->setSortRole(ComparisonModel::SortRole);
    // Live snapshots re-sort as the estimates move.
    m_proxy->setDynamicSortFilter(true);
    setModel(m_proxy);
    setSortingEnabled(true);
    // Unsorted until the user clicks a header: the catalog order of the model.
    sortByColumn(-1, Qt::AscendingOrder);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setWordWrap(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setHighlightSections(false);

    // Shown in the menu only; the key itself is handled in keyPressEvent, which outranks the
    // base class's copy of the current cell alone.
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutVisibleInContextMenu(true);
    connect(m_copyAction, &QAction::triggered, this, &ComparisonView::copySelection);

    connect(m_proxy, &QAbstractItemModel::modelReset, this, &QTableView::resizeColumnsToContents);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &ComparisonView::widenColumnsToContents);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ComparisonView::refreshBanner);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &ComparisonView::refreshBanner);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        if (!m_model || !current.isValid())
            return;
        const QModelIndex source = m_proxy->mapToSource(current);
        const int column = source.column();
        if (column < 1)
            return;
        Q_EMIT groupSelected(m_model->groupKeyOfColumn(column));
        Q_EMIT cellSelected(m_model->groupKeyOfColumn(column), m_model->styleOfRow(source.row()));
    });
}

void ComparisonView::setComparisonModel(ComparisonModel* model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    resizeColumnsToContents();
    refreshBanner();
}

QString ComparisonView::legendText() const { return m_legend->text(); }

QString ComparisonView::bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

void ComparisonView::refreshBanner()
{
    const QString warning = m_model ? m_model->noiseWarning() : QString();
    if (warning == bannerText())
        return;
    m_banner->setText(warning);
    m_banner->setVisible(!warning.isEmpty());
    updateGeometries();
}

// The banner goes above the header and the legend under the rows, in viewport margins added to
// the ones QTableView sets for its header; the header moves down under the banner.
void ComparisonView::updateGeometries()
{
    // The margins set here resize the viewport, which calls this again: the outer call finishes.
    if (m_placingNotes)
        return;
    const QScopedValueRollback<bool> guard(m_placingNotes, true);
    QTableView::updateGeometries();
    const QMargins table = viewportMargins();
    const int width = this->width() - 2 * frameWidth();
    const int bannerHeight = m_banner->isHidden() ? 0 : m_banner->heightForWidth(width);
    const int legendHeight = m_legend->heightForWidth(width);
    setViewportMargins(table.left(), table.top() + bannerHeight, table.right(), table.bottom() + legendHeight);
    const QRect area = viewport()->geometry();
    horizontalHeader()->setGeometry(area.left(), area.top() - table.top(), area.width(), table.top());
    m_banner->setGeometry(frameWidth(), area.top() - table.top() - bannerHeight, width, bannerHeight);
    m_legend->setGeometry(frameWidth(), area.bottom() + 1, width, legendHeight);
    // The base class sized the scroll range for the taller viewport.
    verticalScrollBar()->setPageStep(area.height());
    verticalScrollBar()->setRange(0, std::max(0, verticalHeader()->length() - area.height()));
}

QString ComparisonView::selectionAsTsv() const
{
    return ComparisonModel::toTsv(m_proxy, selectionModel()->selectedIndexes());
}

void ComparisonView::copySelection()
{
    const QString text = selectionAsTsv();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

void ComparisonView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void ComparisonView::contextMenuEvent(QContextMenuEvent* event)
{
    m_copyAction->setEnabled(selectionModel()->hasSelection());
    QMenu menu(this);
    menu.addAction(m_copyAction);
    menu.exec(event->globalPos());
}

// Live updates change the digits many times a second: growing only keeps the columns from jittering.
void ComparisonView::widenColumnsToContents()
{
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        const int wanted = std::max(sizeHintForColumn(column), horizontalHeader()->sectionSizeHint(column));
        if (wanted > columnWidth(column))
            setColumnWidth(column, wanted);
    }
}

} // namespace synctax
