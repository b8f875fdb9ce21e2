// The main window's side of a followed training job: the Follow page, its menu entries, the Teach
// window it opens on the loop, its export and comparison. The run itself is followed by ui/follow/.
#include "ui/mainwindow.h"

#include "ui/follow/followcompare.h"
#include "ui/follow/followcontroller.h"
#include "ui/follow/followview.h"
#include "ui/teach/teachview.h"
#include "ui/trace/tracefiles.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace synctax {

bool MainWindow::isLiveProbeFolder(const QString& path)
{
    return isProbeRunFolder(path) && !QFileInfo::exists(QDir(path).filePath(QStringLiteral("end.json")));
}

FollowView* MainWindow::followView()
{
    if (!m_followView) {
        m_followView = new FollowView(this);
        m_followView->hide(); // a page of m_pages from the first follow on
        connectFollowView();
    }
    return m_followView;
}

void MainWindow::connectFollowView()
{
    connect(m_followView, &FollowView::noteAvailable, this, [this](const QString& note) { log(note); });
    connect(m_followView, &FollowView::stateChanged, this, [this](FollowState state) {
        const QString what = tr("Followed run %1: %2").arg(m_followView->dir(), QString::fromLatin1(toString(state)));
        log(what);
        if (state != FollowState::Running)
            statusBar()->showMessage(what, 10000);
    });
    connect(m_followView, &FollowView::replayRequested, this,
        [this](const StepSequence& step, const QString& label, double syncUs) {
            TeachView* teach = teachView();
            teach->setLaunchSequence(step, label, syncUs);
            teach->show();
            teach->raise();
            teach->activateWindow();
            log(tr("Teach: replaying %1").arg(label));
        });
    connect(m_followView, &FollowView::exportRequested, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export the followed run into folder"));
        if (dir.isEmpty())
            return;
        QStringList written;
        if (exportAll(dir, &written))
            statusBar()->showMessage(tr("Exported %1 files to %2").arg(written.size()).arg(dir), 10000);
    });
    connect(m_followView, &FollowView::compareRequested, this, &MainWindow::compareFollowedRun);
}

bool MainWindow::followRun(const QString& dir, QString* error)
{
    if (dir.isEmpty()) {
        fail(tr("Cannot follow"), tr("no folder given"), error);
        return false;
    }
    if (QFileInfo::exists(dir) && !QFileInfo(dir).isDir()) {
        fail(tr("Cannot follow"), tr("%1: not a folder").arg(dir), error);
        return false;
    }
    FollowView* view = followView();
    if (m_pages->indexOf(view) < 0)
        m_pages->addTab(view, tr("Follow"));
    view->follow(dir);
    m_pages->setCurrentWidget(view);
    addRecentFile(dir);
    setWindowTitle(QStringLiteral("SyncTax — following %1").arg(QFileInfo(dir).fileName()));
    log(tr("Following %1").arg(dir));
    return true;
}

bool MainWindow::followPageShown() const { return m_followView && m_pages->currentWidget() == m_followView; }

bool MainWindow::compareFollowedRun()
{
    if (!m_followView)
        return false;
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Compare with another probe run folder (B)"), QFileInfo(m_followView->dir()).path());
    if (dir.isEmpty())
        return false;
    m_followView->compareWith(dir);
    log(tr("Compared %1 with %2").arg(m_followView->dir(), dir));
    return true;
}

void MainWindow::hideDocksForPage()
{
    // The run's docks say nothing about a trace or a followed job: they step aside while those show.
    if (m_pages->currentWidget() != static_cast<QWidget*>(m_central)) {
        for (QDockWidget* d : findChildren<QDockWidget*>()) {
            if (!d->isHidden()) {
                m_docksHiddenForTrace << d;
                d->hide();
            }
        }
    } else {
        for (QDockWidget* d : m_docksHiddenForTrace)
            d->show();
        m_docksHiddenForTrace.clear();
    }
}

} // namespace synctax
