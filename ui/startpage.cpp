#include "ui/startpage.h"

#include "core/config/presets.h"

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace synctax {

StartPage::StartPage(QAction* run, QAction* openResults, QWidget* parent)
    : QWidget(parent)
    , m_presets(new QComboBox(this))
{
    setObjectName(QStringLiteral("startPage"));
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);

    auto* heading = new QLabel(tr("Measure what per-step logging costs your training loop"), this);
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.4);
    headingFont.setBold(true);
    heading->setFont(headingFont);
    heading->setWordWrap(true);

    auto* steps = new QLabel(
        tr("<ol style='margin-left:0'>"
           "<li>Pick a preset below, or choose models and logging styles in the <b>Experiment</b> panel.</li>"
           "<li>Press <b>Run</b> (%1). The table fills in as blocks are measured; the charts follow the run.</li>"
           "</ol>"
           "<p>Or open a results file recorded here or on another machine: <b>File ▸ Open Results…</b> (%2), or "
           "drop it on the window.</p>")
            .arg(run->shortcut().toString(QKeySequence::NativeText),
                openResults->shortcut().toString(QKeySequence::NativeText)),
        this);
    steps->setObjectName(QStringLiteral("startSteps"));
    steps->setWordWrap(true);
    steps->setTextFormat(Qt::RichText);

    for (const std::string& name : presetNames())
        m_presets->addItem(QString::fromStdString(name));
    m_presets->setPlaceholderText(tr("Choose a preset…"));
    m_presets->setCurrentIndex(-1);
    connect(
        m_presets, &QComboBox::activated, this, [this](int index) { Q_EMIT presetChosen(m_presets->itemText(index)); });

    auto* runButton = new QToolButton(this);
    runButton->setDefaultAction(run);
    runButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* openButton = new QToolButton(this);
    openButton->setDefaultAction(openResults);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Preset:"), this));
    controls->addWidget(m_presets);
    controls->addWidget(runButton);
    controls->addSpacing(24);
    controls->addWidget(openButton);
    controls->addStretch();

    auto* column = new QVBoxLayout;
    column->addWidget(heading);
    column->addWidget(steps);
    column->addLayout(controls);
    column->addStretch();
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(32, 32, 32, 32);
    outer->addLayout(column, 1);
}

void StartPage::setCurrentPreset(const QString& name) { m_presets->setCurrentIndex(m_presets->findText(name)); }

} // namespace synctax
