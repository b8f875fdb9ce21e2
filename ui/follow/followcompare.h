#pragma once

#include "ui/follow/followrun.h"

#include <QDialog>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

class QLabel;
class QTableWidget;

namespace synctax {

// One line of two runs of the same loop side by side (before and after moving a .item()): the
// value in each, B against A, and whether the difference is beyond noise where intervals say so.
struct FollowCompareRow {
    QString what;
    QString a;
    QString b;
    QString change; // B against A
    QString verdict; // "beyond noise", "within noise", or empty where there is no interval
};

// The measured steps' medians, the blocks' ms per step and the A/B's tax with their intervals, and
// each sync site's wait per step (matched by op, file and line).
std::vector<FollowCompareRow> compareRuns(const FollowRun& a, const FollowRun& b);

// The followed run (A) beside another probe run folder (B), as Compare With Results sets two
// results side by side. Both are summarised on a worker: B is read from disk there, A copied.
class FollowCompareDialog : public QDialog {
    Q_OBJECT
public:
    FollowCompareDialog(const FollowRun& a, const QString& dirA, const QString& dirB, QWidget* parent = nullptr);
    ~FollowCompareDialog() override; // cancels the read and waits for it

    bool isReady() const { return m_ready; }
    const std::vector<FollowCompareRow>& rows() const { return m_rows; }
    QTableWidget* table() const { return m_table; }
    QString status() const;

Q_SIGNALS:
    void comparisonAvailable();
    void comparisonFailed(const QString& message);

private:
    void present(std::vector<FollowCompareRow> rows, const QString& error);

    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
    std::vector<FollowCompareRow> m_rows;
    bool m_ready = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::thread m_worker;
};

} // namespace synctax
