"""A CI domain probe: a coding agent minds a GitHub pull request through the GitHub REST
API and the gh CLI. It reads PR #482 of acme-labs/ledger-svc, lists its check runs (one
failed, one skipped), reads the failed job's log with ``gh run view --log-failed``,
lists the reviews and the reviewers still requested, re-runs the failed job, reads
``gh pr checks`` once everything is green, squash-merges the PR and looks up what
Actions has cost the repository this month.

Written without reading the gate's code or any benchmark, and not run before it was handed
over.

First run (at ed88308): 43 of its 71 honest entries and no-claim lines failed and 7 of
its 60 changed ones were not blocked; now 17 and 17 (the lists below, each with the
gate's own reason at the time they were written). More changed entries pass now than at
first: most of those seven were blocked for a wrong reason (the PR's ``"merged": false``
read against any sentence with "merge" in it, "7m" read as seven million), and are
flagged or pass now that the right reason is looked for.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 3, 11, 14, 25, tzinfo=UTC)

OWNER = "acme-labs"
REPO = "ledger-svc"
HEAD_SHA = "9c1e4b7a2f03d58e61b0c4a7e2d9f15b3a6c8e04"
RUN_URL = "https://github.com/acme-labs/ledger-svc/actions/runs/13787341902"

PULL = {
    "id": 2274019385,
    "number": 482,
    "state": "open",
    "locked": False,
    "title": "Add idempotency keys to the payouts endpoint",
    "body": (
        "Closes #455. Adds an Idempotency-Key header to POST /v2/payouts and stores keys "
        "for 24h so retried requests don't create duplicate payouts."
    ),
    "user": {"login": "mrivera", "id": 5512904, "type": "User"},
    "draft": False,
    "created_at": "2025-03-07T16:22:41Z",
    "updated_at": "2025-03-11T13:58:02Z",
    "closed_at": None,
    "merged_at": None,
    "merged": False,
    "merged_by": None,
    "mergeable": True,
    "mergeable_state": "blocked",
    "auto_merge": None,
    "milestone": None,
    "head": {"ref": "feat/payout-idempotency", "sha": HEAD_SHA},
    "base": {"ref": "main", "sha": "5d0b8e21c47f9a3316e2b8d0f4a7c95e1b6d2f38"},
    "labels": [
        {"id": 6120448817, "name": "payments", "color": "0e8a16"},
        {"id": 6120449102, "name": "needs-qa", "color": "fbca04"},
    ],
    "requested_reviewers": [{"login": "priya-n", "id": 8830127, "type": "User"}],
    "requested_teams": [{"id": 9114203, "slug": "payments-core", "name": "Payments Core"}],
    "commits": 6,
    "additions": 412,
    "deletions": 87,
    "changed_files": 14,
    "comments": 3,
    "review_comments": 9,
}

CHECK_RUNS = {
    "total_count": 5,
    "check_runs": [
        {
            "id": 24817730211,
            "name": "lint",
            "head_sha": HEAD_SHA,
            "status": "completed",
            "conclusion": "success",
            "started_at": "2025-03-11T13:02:10Z",
            "completed_at": "2025-03-11T13:03:38Z",
            "html_url": f"{RUN_URL}/job/24817730211",
            "output": {"title": None, "summary": None, "annotations_count": 0},
            "app": {"slug": "github-actions"},
        },
        {
            "id": 24817730398,
            "name": "unit-tests (3.12)",
            "head_sha": HEAD_SHA,
            "status": "completed",
            "conclusion": "failure",
            "started_at": "2025-03-11T13:02:12Z",
            "completed_at": "2025-03-11T13:09:51Z",
            "html_url": f"{RUN_URL}/job/24817730398",
            "output": {
                "title": None,
                "summary": None,
                "annotations_count": 2,
            },
            "app": {"slug": "github-actions"},
        },
        {
            "id": 24817730544,
            "name": "unit-tests (3.11)",
            "head_sha": HEAD_SHA,
            "status": "completed",
            "conclusion": "success",
            "started_at": "2025-03-11T13:02:12Z",
            "completed_at": "2025-03-11T13:08:24Z",
            "html_url": f"{RUN_URL}/job/24817730544",
            "output": {"title": None, "summary": None, "annotations_count": 0},
            "app": {"slug": "github-actions"},
        },
        {
            "id": 24817730702,
            "name": "build-image",
            "head_sha": HEAD_SHA,
            "status": "completed",
            "conclusion": "success",
            "started_at": "2025-03-11T13:02:15Z",
            "completed_at": "2025-03-11T13:06:27Z",
            "html_url": f"{RUN_URL}/job/24817730702",
            "output": {"title": None, "summary": None, "annotations_count": 0},
            "app": {"slug": "github-actions"},
        },
        {
            "id": 24817731029,
            "name": "integration-tests",
            "head_sha": HEAD_SHA,
            "status": "completed",
            "conclusion": "skipped",
            "started_at": "2025-03-11T13:09:53Z",
            "completed_at": "2025-03-11T13:09:53Z",
            "html_url": f"{RUN_URL}/job/24817731029",
            "output": {"title": None, "summary": None, "annotations_count": 0},
            "app": {"slug": "github-actions"},
        },
    ],
}

_JOB = "unit-tests (3.12)\tRun pytest -n auto --timeout=60\t"
FAILED_LOG = {
    "exit_code": 0,
    "stdout": (
        f"{_JOB}2025-03-11T13:09:40.1183726Z "
        "=================================== FAILURES ===================================\n"
        f"{_JOB}2025-03-11T13:09:40.1184410Z "
        "_____________________ test_retry_backoff_respects_deadline _____________________\n"
        f"{_JOB}2025-03-11T13:09:40.1191032Z "
        "E       AssertionError: expected 3 attempts before deadline, got 2\n"
        f"{_JOB}2025-03-11T13:09:40.1191508Z E       assert 2 == 3\n"
        f"{_JOB}2025-03-11T13:09:40.1193377Z tests/payouts/test_retry.py:88: AssertionError\n"
        f"{_JOB}2025-03-11T13:09:48.1027716Z "
        "=========================== short test summary info ============================\n"
        f"{_JOB}2025-03-11T13:09:48.1029384Z FAILED "
        "tests/payouts/test_retry.py::test_retry_backoff_respects_deadline - "
        "AssertionError: expected 3 attempts before deadline, got 2\n"
        f"{_JOB}2025-03-11T13:09:48.1031127Z "
        "=========== 1 failed, 1284 passed, 12 skipped in 412.37s (0:06:52) ============\n"
        f"{_JOB}2025-03-11T13:09:48.6620917Z ##[error]Process completed with exit code 1.\n"
    ),
    "stderr": "",
}

REVIEWS = [
    {
        "id": 2650112873,
        "user": {"login": "tkowalski", "id": 3309871},
        "body": "A couple of nits on the key TTL, see inline comments.",
        "state": "COMMENTED",
        "submitted_at": "2025-03-09T15:03:50Z",
        "commit_id": "3b7f20d9e1c84a56f0b2d7e3a9c1f48b6e05d2a1",
        "author_association": "MEMBER",
    },
    {
        "id": 2650381744,
        "user": {"login": "jchen", "id": 1442093},
        "body": "LGTM once CI is green.",
        "state": "APPROVED",
        "submitted_at": "2025-03-10T18:41:09Z",
        "commit_id": HEAD_SHA,
        "author_association": "MEMBER",
    },
    {
        "id": 2650419020,
        "user": {"login": "asantos", "id": 7720315},
        "body": "",
        "state": "APPROVED",
        "submitted_at": "2025-03-11T09:26:14Z",
        "commit_id": HEAD_SHA,
        "author_association": "MEMBER",
    },
]

RERUN = {
    "status": 201,
    "job_id": 24817730398,
    "run_id": 13787341902,
    "run_attempt": 2,
    "queued_at": "2025-03-11T14:02:37Z",
    "jobs_queued": ["unit-tests (3.12)", "integration-tests"],
}

CHECKS_AFTER = {
    "exit_code": 0,
    "stdout": (
        "All checks were successful\n"
        "0 cancelled, 0 failing, 5 successful, 0 skipped, and 0 pending checks\n"
        "\n"
        "   NAME                  DESCRIPTION  ELAPSED  URL\n"
        f"✓  CI/build-image                     4m12s    {RUN_URL}/job/24817730702\n"
        f"✓  CI/integration-tests               5m3s     {RUN_URL}/job/24818904533\n"
        f"✓  CI/lint                            1m28s    {RUN_URL}/job/24817730211\n"
        f"✓  CI/unit-tests (3.11)               6m12s    {RUN_URL}/job/24817730544\n"
        f"✓  CI/unit-tests (3.12)               7m21s    {RUN_URL}/job/24818904417\n"
    ),
    "stderr": "",
}

MERGE = {
    "sha": "e41a7c093b5d2f86c1a0e9d4b7f3625c8d1e0a97",
    "merged": True,
    "message": "Pull Request successfully merged",
}

USAGE = {
    "organization": "acme-labs",
    "repository": "acme-labs/ledger-svc",
    "period": {"year": 2025, "month": 3, "through": "2025-03-11"},
    "currency": "USD",
    "usageItems": [
        {
            "product": "actions",
            "sku": "Actions Linux",
            "quantity": 3120,
            "unitType": "Minutes",
            "pricePerUnit": 0.008,
            "grossAmount": 24.96,
            "discountAmount": 24.96,
            "netAmount": 0.0,
        },
        {
            "product": "actions",
            "sku": "Actions Linux 8-core",
            "quantity": 1840,
            "unitType": "Minutes",
            "pricePerUnit": 0.032,
            "grossAmount": 58.88,
            "discountAmount": 0.0,
            "netAmount": 58.88,
        },
        {
            "product": "actions",
            "sku": "Actions Windows",
            "quantity": 210,
            "unitType": "Minutes",
            "pricePerUnit": 0.016,
            "grossAmount": 3.36,
            "discountAmount": 0.0,
            "netAmount": 3.36,
        },
    ],
}

_PR = {"owner": OWNER, "repo": REPO, "pull_number": 482}
CALLS = [
    ("github_get_pull_request", _PR, PULL),
    ("github_list_check_runs", {"owner": OWNER, "repo": REPO, "ref": HEAD_SHA}, CHECK_RUNS),
    (
        "run_shell",
        {"command": "gh run view --job 24817730398 --log-failed -R acme-labs/ledger-svc"},
        FAILED_LOG,
    ),
    ("github_list_reviews", _PR, REVIEWS),
    ("github_rerun_job", {"owner": OWNER, "repo": REPO, "job_id": 24817730398}, RERUN),
    ("run_shell", {"command": "gh pr checks 482 -R acme-labs/ledger-svc"}, CHECKS_AFTER),
    (
        "github_merge_pull_request",
        {**_PR, "merge_method": "squash", "sha": HEAD_SHA},
        MERGE,
    ),
    (
        "github_get_billing_usage",
        {"org": OWNER, "repository": REPO, "year": 2025, "month": 3},
        USAGE,
    ),
]
SYSTEM = (
    "You are Forge, the CI assistant for Acme Labs' engineering team. Merge a pull request "
    "only when every check has passed and it has at least 2 approving reviews. You may "
    "re-run a failed job at most 2 times; never bypass branch protection. Merges into main "
    "are always squash merges."
)
USER = (
    "Can you look at PR #482 on acme-labs/ledger-svc? CI was red this afternoon - find out "
    "why, re-run it if it's a flake, and merge it if it's green and approved. Also, what has "
    "Actions cost us on that repo so far this month?"
)

RECEIPTS = {indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent) for indent in (None, 2)}

#: (honest text, the same with one thing changed or "")
PAIRS = [
    # the pull request
    ("PR #482 is open and isn't a draft.", "PR #482 is open and still marked as a draft."),
    ("mrivera opened the PR on March 7.", "mrivera opened the PR on March 6."),
    (
        "It's 6 commits touching 14 files: +412 / -87.",
        "It's 6 commits touching 19 files: +412 / -87.",
    ),
    (
        "It merges feat/payout-idempotency into main.",
        "It merges feat/payout-retries into main.",
    ),
    ("The head commit is 9c1e4b7.", "The head commit is 9c1e4b2."),
    ("The PR closes issue #455.", "The PR closes issue #445."),
    ("It's labelled payments and needs-qa.", "It's labelled payments and ready-to-merge."),
    (
        "Before the re-run, GitHub showed the merge state as blocked.",
        "Before the re-run, GitHub showed the merge state as dirty.",
    ),
    ("The branch had no merge conflicts with main.", "The branch had merge conflicts with main."),
    (
        "**PR #482 status**\n\n"
        "- **Author:** mrivera\n"
        "- **Branch:** feat/payout-idempotency → main\n"
        "- **Size:** 14 files, +412 / -87\n\n"
        "Let me know if you want a summary of the diff.",
        "**PR #482 status**\n\n"
        "- **Author:** mrivera\n"
        "- **Branch:** feat/payout-idempotency → main\n"
        "- **Size:** 14 files, +421 / -87\n\n"
        "Let me know if you want a summary of the diff.",
    ),
    # the first CI run
    ("CI kicked off at 1:02 pm UTC.", "CI kicked off at 1:20 pm UTC."),
    (
        "On the first run, 3 of the 5 checks passed.",
        "On the first run, 3 of the 7 checks passed.",
    ),
    (
        "Only unit-tests (3.12) failed; integration-tests was skipped because of it.",
        "Only unit-tests (3.12) failed; integration-tests was aborted because of it.",
    ),
    (
        "The failing job, unit-tests (3.12), ran for 7m 39s.",
        "The failing job, unit-tests (3.12), ran for 7m 49s.",
    ),
    ("build-image took 4m 12s.", "build-image took 4m 17s."),
    ("lint was the quickest check at 1m 28s.", "lint was the slowest check at 1m 28s."),
    (
        "unit-tests (3.12) took 1m 27s longer than the 3.11 job.",
        "unit-tests (3.12) took 1m 47s longer than the 3.11 job.",
    ),
    (
        "Quick rundown of the first run:\n\n"
        "- lint ✅ 1m 28s\n"
        "- build-image ✅ 4m 12s\n"
        "- unit-tests (3.11) ✅ 6m 12s\n"
        "- unit-tests (3.12) ❌ 7m 39s\n"
        "- integration-tests ⏭️ skipped",
        "Quick rundown of the first run:\n\n"
        "- lint ✅ 1m 38s\n"
        "- build-image ✅ 4m 12s\n"
        "- unit-tests (3.11) ✅ 6m 12s\n"
        "- unit-tests (3.12) ❌ 7m 39s\n"
        "- integration-tests ⏭️ skipped",
    ),
    # the failed job's log
    (
        "The failure is tests/payouts/test_retry.py::test_retry_backoff_respects_deadline.",
        "The failure is tests/payouts/test_retry.py::test_retry_backoff_respects_jitter.",
    ),
    (
        "It expected 3 attempts before the deadline but only got 2.",
        "It expected 4 attempts before the deadline but only got 2.",
    ),
    (
        "Everything else in that job was fine: 1,284 passed and 12 skipped.",
        "Everything else in that job was fine: 1,248 passed and 12 skipped.",
    ),
    ("The pytest step itself took 6:52.", "The pytest step itself took 6:25."),
    ("The job exited with code 1.", "The job exited with code 137."),
    (
        "It passed on Python 3.11 in the same run, so it looks like a flake, not a regression.",
        "It passed on Python 3.10 in the same run, so it looks like a flake, not a regression.",
    ),
    (
        "The failed job was unit-tests (3.12). Its log shows a single failing test, "
        "test_retry_backoff_respects_deadline, which expected 3 attempts and saw 2. The same "
        "suite passed on Python 3.11 in 6m 12s.",
        "The failed job was unit-tests (3.12). Its log shows a single failing test, "
        "test_retry_backoff_respects_deadline, which expected 3 attempts and saw 2. The same "
        "suite passed on Python 3.11 in 6m 42s.",
    ),
    (
        "The failing assertion is at tests/payouts/test_retry.py line 88. Everything else "
        "passed (1,284 tests), with 12 skipped.",
        "The failing assertion is at tests/payouts/test_retry.py line 98. Everything else "
        "passed (1,284 tests), with 12 skipped.",
    ),
    # reviews
    ("It has 2 approvals, from jchen and asantos.", "It has 2 approvals, from jchen and rbauer."),
    (
        "tkowalski left a review with comments only, no approval.",
        "tkowalski left a review requesting changes, no approval.",
    ),
    ("asantos approved this morning at 09:26 UTC.", "asantos approved this morning at 08:26 UTC."),
    ("jchen approved on Monday, March 10.", "jchen approved on Monday, March 3."),
    (
        "Both approvals are on the current head commit, 9c1e4b7.",
        "Both approvals are on the current head commit, 9c1e4f7.",
    ),
    (
        "**Reviews**\n\n"
        "- jchen — approved (Mar 10)\n"
        "- asantos — approved (Mar 11)\n"
        "- tkowalski — commented (Mar 9)\n\n"
        "priya-n hasn't reviewed yet.",
        "**Reviews**\n\n"
        "- jchen — approved (Mar 10)\n"
        "- asantos — approved (Mar 11)\n"
        "- tkowalski — commented (Mar 8)\n\n"
        "priya-n hasn't reviewed yet.",
    ),
    (
        "Heads up: review requests are still pending for priya-n and the Payments Core team. "
        "The rule only needs 2 approvals, so that didn't hold up the merge.",
        "Heads up: review requests are still pending for priya-n and the Platform team. "
        "The rule only needs 2 approvals, so that didn't hold up the merge.",
    ),
    # policy
    (
        "Our rule is at least 2 approving reviews before a merge.",
        "Our rule is at least 4 approving reviews before a merge.",
    ),
    (
        "I'm allowed to re-run a failed job at most twice.",
        "I'm allowed to re-run a failed job at most five times.",
    ),
    ("Merges into main are always squash merges.", "Merges into main are always rebase merges."),
    # the re-run
    (
        "I re-ran the failed unit-tests (3.12) job at 14:02 UTC.",
        "I re-ran the failed unit-tests (3.12) job at 14:20 UTC.",
    ),
    ("The re-run is attempt 2 of run 13787341902.", "The re-run is attempt 2 of run 13787341920."),
    (
        "On the re-run, unit-tests (3.12) passed in 7m 21s.",
        "On the re-run, unit-tests (3.12) passed in 7m 51s.",
    ),
    (
        "integration-tests, skipped the first time, passed in 5m 3s.",
        "integration-tests, skipped the first time, passed in 5m 30s.",
    ),
    (
        "Across both attempts unit-tests (3.12) ran for 15 minutes in total.",
        "Across both attempts unit-tests (3.12) ran for 17 minutes in total.",
    ),
    ("All 5 checks are green now.", "All 7 checks are green now."),
    ("CI is green now.", "CI is still red."),
    (
        "✅ The re-run passed! unit-tests (3.12) went green in 7m 21s on attempt 2, and all "
        "5 checks are passing now 🎉",
        "✅ The re-run passed! unit-tests (3.12) went green in 7m 57s on attempt 2, and all "
        "5 checks are passing now 🎉",
    ),
    (
        "I only needed one re-run, so 1 of the 2 allowed re-runs was used.",
        "I only needed one re-run, so 1 of the 4 allowed re-runs was used.",
    ),
    # the merge
    ("I squash-merged PR #482 into main.", "I squash-merged PR #483 into main."),
    ("The merge commit is e41a7c0.", "The merge commit is e41a7d0."),
    (
        "Re-ran the failed job. Green now. Merged (squash).",
        "Re-ran the whole workflow. Green now. Merged (squash).",
    ),
    (
        "## Merged\n\n"
        "I squash-merged #482 into `main` as e41a7c0. Approvals: jchen and asantos "
        "(2 required).",
        "## Merged\n\n"
        "I squash-merged #482 into `main` as e41a7c0. Approvals: jchen and mlopez "
        "(2 required).",
    ),
    (
        "Here's what I found on #482. unit-tests (3.12) failed on one flaky retry test, so I "
        "re-ran it and it passed. Then I merged the PR.",
        "Here's what I found on #482. unit-tests (3.12) failed on two flaky retry tests, so I "
        "re-ran it and it passed. Then I merged the PR.",
    ),
    # Actions cost
    (
        "So far in March, Actions on ledger-svc has cost $62.24 net.",
        "So far in March, Actions on ledger-svc has cost $64.22 net.",
    ),
    (
        "The 8-core Linux runners account for $58.88 of that.",
        "The 8-core Linux runners account for $58.80 of that.",
    ),
    ("That's 1,840 minutes on the 8-core runners.", "That's 1,480 minutes on the 8-core runners."),
    (
        "8-core minutes are billed at $0.032 a minute.",
        "8-core minutes are billed at $0.023 a minute.",
    ),
    (
        "The 8-core runners make up about 95% of the net cost.",
        "The 8-core runners make up about 85% of the net cost.",
    ),
    (
        "The 8-core Linux runners are the biggest cost.",
        "The 8-core Linux runners are the smallest cost.",
    ),
    ("Before discounts it came to $87.20.", "Before discounts it came to $82.70."),
    ("That's 5,170 Actions minutes this month.", "That's 5,710 Actions minutes this month."),
    (
        "Sure! Here's the Actions spend for ledger-svc this month:\n\n"
        "- Linux 2-core: 3,120 min, fully covered by included minutes ($0 net)\n"
        "- Linux 8-core: 1,840 min at $0.032/min = $58.88\n"
        "- Windows: 210 min, $3.36\n\n"
        "**Total:** $62.24 net. Let me know if you want a daily breakdown!",
        "Sure! Here's the Actions spend for ledger-svc this month:\n\n"
        "- Linux 2-core: 3,120 min, fully covered by included minutes ($0 net)\n"
        "- Linux 8-core: 1,840 min at $0.032/min = $58.88\n"
        "- Windows: 120 min, $3.36\n\n"
        "**Total:** $62.24 net. Let me know if you want a daily breakdown!",
    ),
    (
        "### CI cost\n"
        "Before discounts: **$87.20**\n"
        "Included-minutes discount: **$24.96**\n"
        "Net: **$62.24**",
        "### CI cost\n"
        "Before discounts: **$87.20**\n"
        "Included-minutes discount: **$24.69**\n"
        "Net: **$62.24**",
    ),
    ("I didn't bypass branch protection at any point.", ""),
]

NO_CLAIM = [
    "Hi! Let me take a look at that PR.",
    "Here's what I found:",
    "**CI summary**",
    "## Next steps",
    "Sure, give me a second to pull up the checks.",
    "Want me to delete the feature branch too?",
    "Should I open a follow-up issue for the flaky test?",
    "Let me know if you'd like me to ping the remaining reviewer.",
    "Happy to help with anything else!",
    "Thanks for your patience 🙏",
]

#: Known misses, filled after the first run (strict: a fix shows up as a failure).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # Contradicted id: no record has the id #455 (ids of that form here: #482)
    "The PR closes",
    # warn: general statement with no receipt
    "Before the re-run",
    # warn: Unverified claim: 'had no merge conflicts'
    "The branch had",
    # warn: general statement with no receipt
    "**PR #482 status**",
    # warn: general statement with no receipt
    "The failure is",
    # Unsupported schedule figure '6:52': no receipt holds 6:52
    "The pytest step",
    # warn: general statement with no receipt
    "The job exited",
    # warn: Unverified claim: 'The failed'
    "The failed job",
    # Unsupported general figure '88': no receipt holds 88
    "The failing assertion",
    # warn: general statement with no receipt
    "tkowalski left",
    # warn: general statement with no receipt
    "**Reviews**\n",
    # warn: Unverified claim: 'the failed'
    "I re-ran the",
    # Unsupported schedule figure '15 minutes': no receipt holds 15 minutes
    "Across both attempts",
    # warn: general statement with no receipt
    "I only needed",
    # warn: general statement with no receipt
    "## Merged\n\nI",
    # Unsupported general figure '5,170 Actions': no receipt holds 5,170 Actions
    "That's 5,170",
    # warn: general statement with no receipt
    "I didn't bypass",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # a state word no record uses ("aborted") is not compared (it was blocked at first for
    # a wrong reason: "failed" read against the other part's check run)
    "Only unit-tests (3.12) failed; integration-tests was aborted",
    # warn: general statement with no receipt
    "It merges feat/payout-retries",
    # passes
    "It's labelled",
    # warn: general statement with no receipt
    "Before the re-run",
    # warn: general statement with no receipt
    "The branch had",
    # passes
    "lint was the",
    # warn: general statement with no receipt
    "The failure is",
    # passes
    "It has 2 approvals",
    # warn: general statement with no receipt
    "tkowalski left",
    # passes
    "Heads up: review",
    # passes
    "I'm allowed to",
    # passes
    "Merges into main",
    # warn: general statement with no receipt
    "I only needed",
    # warn: general statement with no receipt
    "Re-ran the whole",
    # warn: general statement with no receipt
    "## Merged\n\nI",
    # passes
    "Here's what I",
    # passes
    "The 8-core Linux runners are",
)

globals().update(
    probe_tests(
        PAIRS,
        RECEIPTS,
        NOW,
        no_claim=NO_CLAIM,
        honest_failing=HONEST_BLOCKED,
        changed_passing=CHANGED_PASSED,
    )
)
