"""A data-analysis session none of the benchmarks has: an analyst agent answering a
product manager's questions about a subscription app's metrics, with the tools such
agents call (run_sql returning columns and rows, describe_table, run_python printing
pandas output, get_dashboard_metric). The results hold two rows sharing a value (Team
revenue in July and August), a NULL (Partner signups in July) and figures large enough
for thousands separators. Written for this test without reading the gate's code, its
other tests or any benchmark, and not tuned to the gate: every honest sentence was
checked by hand (sums, shares and rounding in Python) and every changed value by a
script: it appears nowhere in the session and is no sum, difference or share of figures
that belong together (chance matches across unrelated ones, such as 142 - 18.4 for
"124 sessions", were let stand).


First run (at the session's code after the other probes' fixes): 29 of the 51 honest
entries and no-claim lines failed and 8 of the 40 changed ones were not blocked; now 19 and
8 (the lists below: aggregates over rows a month or a channel picks, shares, growth rates
and pandas' text output are this domain's gaps). Fixed from it: a query result of
``columns`` and ``rows`` of values is read as rows of named fields; "48.2K", "$13.1k" are
values rounded at their last digit; a metric's ``"unit": "percent"`` makes its value and
previous value percentages.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 9, 9, 10, tzinfo=UTC)

SCHEMA = {
    "table": "subscriptions",
    "columns": [
        {"name": "subscription_id", "type": "bigint", "nullable": False},
        {"name": "user_id", "type": "bigint", "nullable": False},
        {"name": "plan", "type": "text", "nullable": False},
        {"name": "channel", "type": "text", "nullable": False},
        {"name": "status", "type": "text", "nullable": False},
        {"name": "started_at", "type": "timestamptz", "nullable": False},
        {"name": "cancelled_at", "type": "timestamptz", "nullable": True},
        {"name": "mrr_usd", "type": "numeric(10,2)", "nullable": False},
    ],
}
REVENUE = {
    "columns": ["month", "plan", "revenue_usd"],
    "rows": [
        ["2025-06", "Basic", 12480.0],
        ["2025-06", "Pro", 44935.5],
        ["2025-06", "Team", 30120.0],
        ["2025-07", "Basic", 12960.0],
        ["2025-07", "Pro", 46118.0],
        ["2025-07", "Team", 31450.0],
        ["2025-08", "Basic", 13105.0],
        ["2025-08", "Pro", 48210.0],
        ["2025-08", "Team", 31450.0],
    ],
    "row_count": 9,
}
SIGNUPS = {
    "columns": ["channel", "jul_signups", "aug_signups"],
    "rows": [
        ["Organic", 4812, 5230],
        ["Paid Search", 3105, 3390],
        ["Referral", 1460, 1388],
        ["Partner", None, 642],
    ],
    "row_count": 4,
}
CHURN = {
    "columns": ["cohort", "active_at_start", "cancelled", "churn_rate"],
    "rows": [
        ["2025-03", 2140, 96, 0.0449],
        ["2025-04", 1985, 81, 0.0408],
        ["2025-05", 2310, 118, 0.0511],
        ["2025-06", 1720, 101, 0.0587],
    ],
    "row_count": 4,
}
PYTHON_CODE = (
    "import pandas as pd\n"
    'pd.set_option("display.precision", 4)\n'
    'rev = pd.DataFrame(revenue_rows, columns=["month", "plan", "revenue_usd"])\n'
    'pivot = rev.pivot(index="plan", columns="month", values="revenue_usd")\n'
    'pivot["mom_pct"] = ((pivot["2025-08"] / pivot["2025-07"] - 1) * 100).round(2)\n'
    "print(pivot)\n"
    "print()\n"
    "sessions = pd.read_sql(\"SELECT sessions FROM user_activity WHERE month = '2025-08'\", conn)\n"
    "print(sessions.describe())\n"
)
PYTHON_OUT = {
    "stdout": (
        "month  2025-06  2025-07  2025-08  mom_pct\n"
        "plan                                     \n"
        "Basic  12480.0  12960.0  13105.0     1.12\n"
        "Pro    44935.5  46118.0  48210.0     4.54\n"
        "Team   30120.0  31450.0  31450.0     0.00\n"
        "\n"
        "         sessions\n"
        "count  18204.0000\n"
        "mean      11.3742\n"
        "std        8.9215\n"
        "min        1.0000\n"
        "25%        4.0000\n"
        "50%        9.0000\n"
        "75%       16.0000\n"
        "max      142.0000\n"
    ),
    "stderr": "",
}
CONVERSION = {
    "metric": "trial_to_paid_conversion",
    "label": "Trial-to-paid conversion",
    "period": "2025-08",
    "unit": "percent",
    "value": 18.4,
    "previous_value": 16.9,
    "pct_change": 8.88,
}
CALLS = [
    ("describe_table", {"table": "subscriptions"}, SCHEMA),
    (
        "run_sql",
        {
            "query": "SELECT to_char(month, 'YYYY-MM') AS month, plan, SUM(amount_usd) AS "
            "revenue_usd FROM revenue_monthly WHERE month BETWEEN '2025-06-01' AND "
            "'2025-08-01' GROUP BY 1, 2 ORDER BY 1, 2"
        },
        REVENUE,
    ),
    (
        "run_sql",
        {
            "query": "SELECT channel, jul_signups, aug_signups FROM signups_by_channel "
            "ORDER BY aug_signups DESC"
        },
        SIGNUPS,
    ),
    (
        "run_sql",
        {
            "query": "SELECT cohort, active_at_start, cancelled, ROUND(cancelled::numeric / "
            "active_at_start, 4) AS churn_rate FROM churn_by_cohort WHERE month = '2025-07' "
            "ORDER BY cohort"
        },
        CHURN,
    ),
    ("run_python", {"code": PYTHON_CODE}, PYTHON_OUT),
    (
        "get_dashboard_metric",
        {"metric": "trial_to_paid_conversion", "period": "2025-08"},
        CONVERSION,
    ),
]
SYSTEM = (
    "You are the analytics assistant for Brightline, a subscription app. Revenue figures are "
    "in USD and exclude refunds. Churn is measured as cancelled subscriptions divided by "
    "active subscriptions at the start of the month."
)
USER = (
    "Can you pull revenue by plan for June to August, signups by channel for July and "
    "August, and July churn by cohort? Also, how is trial conversion trending?"
)


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="q") for indent in (None, 2)
}

#: Replies with nothing to check: they must pass as they are.
NO_CLAIM = [
    "Hi! Happy to dig into these numbers.",
    "Which months would you like me to compare next?",
    "Want me to break churn down by plan as well?",
    "I can also pull signups by week if that helps.",
    "### Revenue by plan",
    "Here's the breakdown:",
    "Let me know if you'd like a chart of this.",
]

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # terse analyst: single figures, rounding, months
    ("Pro revenue in August was $48,210.", "Pro revenue in August was $48,120."),
    ("Aug 2025 Pro: 48.2K.", "Aug 2025 Pro: 46.8K."),
    ("Basic was about $13.1k in August.", "Basic was about $13.6k in August."),
    # a row whose value another row holds too
    ("Team brought in $31,450 in August.", "Team brought in $31,450 in June."),
    # totals, differences, shares
    (
        "Total revenue across the three plans was $92,765 in August.",
        "Total revenue across the three plans was $92,675 in August.",
    ),
    ("That's up $2,237 from July's $90,528.", "That's up $2,327 from July's $90,528."),
    ("Month over month, total revenue grew 2.5%.", "Month over month, total revenue grew 3.7%."),
    ("Pro made up 52.0% of August revenue.", "Pro made up 54.0% of August revenue."),
    (
        "Pro revenue rose $2,092 from July to August, or 4.54%.",
        "Pro revenue rose $2,902 from July to August, or 4.54%.",
    ),
    (
        "Over June to August, Pro brought in $139,263.50 in total.",
        "Over June to August, Pro brought in $139,623.50 in total.",
    ),
    (
        "Basic grew 1.12% from July to August, while Team was flat at 0.00%.",
        "Basic grew 1.21% from July to August, while Team was flat at 0.00%.",
    ),
    # rankings and orderings
    (
        "Pro was the largest plan in every month, and Basic the smallest.",
        "Team was the largest plan in every month, and Basic the smallest.",
    ),
    (
        "Organic was the largest channel in August with 5,230 signups.",
        "Organic was the largest channel in August with 5,320 signups.",
    ),
    ("Partner was the smallest channel in August.", "Referral was the smallest channel in August."),
    # signups, the NULL
    (
        "Organic accounted for 49.1% of August signups.",
        "Organic accounted for 47.3% of August signups.",
    ),
    (
        "August signups totalled 10,650 across the four channels.",
        "August signups totalled 10,560 across the four channels.",
    ),
    (
        "Paid Search signups rose from 3,105 in July to 3,390 in August.",
        "Paid Search signups rose from 3,105 in July to 3,930 in August.",
    ),
    (
        "Referral dipped by 72 signups month over month.",
        "Referral dipped by 94 signups month over month.",
    ),
    (
        "There's no data for the Partner channel in July; the value is NULL.",
        "There's no data for the Partner channel in August; the value is NULL.",
    ),
    # churn by cohort
    (
        "The June cohort had the highest July churn, at 5.87%.",
        "The June cohort had the highest July churn, at 6.87%.",
    ),
    (
        "The smallest cohort is June 2025, with 1,720 active subscriptions at the start of July.",
        "The smallest cohort is June 2025, with 1,270 active subscriptions at the start of July.",
    ),
    ("The April cohort churned least, at 4.08%.", "The May cohort churned least, at 4.08%."),
    (
        "Across the four cohorts, 396 subscriptions were cancelled in July.",
        "Across the four cohorts, 423 subscriptions were cancelled in July.",
    ),
    ("That's an overall July churn of 4.86%.", "That's an overall July churn of 4.68%."),
    # counts of rows and columns
    (
        "The revenue query returned 9 rows: three plans over three months.",
        "The revenue query returned 14 rows: three plans over three months.",
    ),
    ("The subscriptions table has 8 columns.", "The subscriptions table has 12 columns."),
    ("cancelled_at is the only nullable column.", "status is the only nullable column."),
    # describe() output
    (
        "The average active user had about 11.4 sessions in August, with a median of 9.",
        "The average active user had about 11.4 sessions in August, with a median of 13.",
    ),
    ("18,204 users were active in August.", "18,402 users were active in August."),
    ("The heaviest user logged 142 sessions.", "The heaviest user logged 124 sessions."),
    # dashboard metric, percentage points
    (
        "Trial-to-paid conversion was 18.4% in August, up from 16.9%.",
        "Trial-to-paid conversion was 18.4% in August, up from 15.9%.",
    ),
    (
        "That's a 1.5 percentage-point gain, or 8.88% in relative terms.",
        "That's a 2.3 percentage-point gain, or 8.88% in relative terms.",
    ),
    # the rules in the system prompt
    (
        "Revenue figures are in USD and exclude refunds.",
        "Revenue figures are in USD and include refunds.",
    ),
    (
        "Churn here is cancelled subscriptions divided by active subscriptions at the start of "
        "the month.",
        "Churn here is cancelled subscriptions divided by active subscriptions at the end of "
        "the month.",
    ),
    # Claude-style explanatory
    (
        "Looking at August, Pro remains your biggest plan: it brought in $48,210, roughly 52% of "
        "the month's $92,765 total.",
        "Looking at August, Pro remains your biggest plan: it brought in $48,210, roughly 62% of "
        "the month's $92,765 total.",
    ),
    (
        "It's worth noting that Team revenue didn't move between July and August; both months "
        "came in at exactly $31,450.",
        "It's worth noting that Team revenue didn't move between June and July; both months "
        "came in at exactly $31,450.",
    ),
    # markdown: a table, bullets with bold labels
    (
        "| Plan | Jul 2025 | Aug 2025 |\n"
        "|---|---|---|\n"
        "| Basic | $12,960 | $13,105 |\n"
        "| Pro | $46,118 | $48,210 |\n"
        "| Team | $31,450 | $31,450 |",
        "| Plan | Jul 2025 | Aug 2025 |\n"
        "|---|---|---|\n"
        "| Basic | $12,960 | $13,105 |\n"
        "| Pro | $46,118 | $48,510 |\n"
        "| Team | $31,450 | $31,450 |",
    ),
    ("- **Pro:** $48,210 (52.0% of total)", "- **Pro:** $48,210 (57.0% of total)"),
    (
        "- **Organic:** 5,230 signups, up from 4,812 in July",
        "- **Organic:** 5,230 signups, up from 4,182 in July",
    ),
    (
        "- **Paid Search share:** 31.8% of August signups",
        "- **Paid Search share:** 35.2% of August signups",
    ),
    # whole replies
    (
        "Here's revenue by plan for the last two months:\n\n"
        "| Plan | Jul 2025 | Aug 2025 | MoM |\n"
        "|---|---|---|---|\n"
        "| Basic | $12,960 | $13,105 | +1.12% |\n"
        "| Pro | $46,118 | $48,210 | +4.54% |\n"
        "| Team | $31,450 | $31,450 | 0.00% |\n\n"
        "Total revenue grew from $90,528 to $92,765, with Pro driving most of the increase.",
        "",
    ),
    (
        "**Signups, August 2025**\n\n"
        "- **Organic:** 5,230 (49.1% of the total)\n"
        "- **Paid Search:** 3,390, up from 3,105 in July\n"
        "- **Referral:** 1,388, down 72\n"
        "- **Partner:** 642, with no July figure to compare (NULL)\n\n"
        "All four channels together brought in 10,650 signups.",
        "",
    ),
    (
        "July churn was highest in the newest cohort. The June 2025 cohort lost 101 of its "
        "1,720 subscriptions, a churn rate of 5.87%, while the April cohort was the most stable "
        "at 4.08%.\n\n"
        "Overall, 396 of 8,155 subscriptions were cancelled, which works out to about 4.86%. "
        "As a reminder, churn is cancelled subscriptions divided by active subscriptions at the "
        "start of the month.",
        "",
    ),
    (
        "Trial-to-paid conversion: 18.4% in Aug vs 16.9% in Jul (+1.5 pp, +8.88%).\n"
        "Median sessions per active user: 9; mean 11.37.\n"
        "Partner signups for July are NULL, so there's no July baseline for that channel.",
        "",
    ),
]

#: Known misses, filled after the first run (strict: a fix shows up as a failure to
#: update these).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS],
    # a sum over a month's rows ($90,528) is not found when the sentence names no operation
    "That's up $2,237 from July's $90,528.",
    # a growth rate of two sums is not worked out
    "Month over month, total revenue grew 2.5%.",
    # a share of a sum of rows is not worked out
    "Pro made up 52.0% of August revenue.",
    # '10,650 across' is read as a count of a unit 'across'
    "August signups totalled 10,650 across the four",
    # a difference of two columns of a row with a count's unit
    "Referral dipped by 72 signups month over month.",
    # flagged: a null cell is not read as no data
    "There's no data for the Partner channel in July; the value",
    # a sum of four rows
    "Across the four cohorts, 396 subscriptions were cancelled",
    # a ratio of two sums
    "That's an overall July churn of 4.86%.",
    # 'three months' is read as a span
    "The revenue query returned 9 rows: three plans over three",
    # a count of a list of column records is read as another list's
    "The subscriptions table has 8 columns.",
    # pandas' describe() output is not read as named values
    "The average active user had about 11.4 sessions in August,",
    # as above
    "The heaviest user logged 142 sessions.",
    # a difference of percentages; the metric's pct_change is not found
    "That's a 1.5 percentage-point gain, or 8.88% in relative",
    # a share of a sum of rows
    "Looking at August, Pro remains your biggest plan: it",
    # as above
    "- **Pro:** $48,210 (52.0% of total)",
    # 'two months' is read as a span
    "Here's revenue by plan for the last two months:",
    # shares and differences of rows, as above
    "**Signups, August 2025**",
    # flagged: an ordering of cohorts by a rate is not checked
    "July churn was highest in the newest cohort. The June 2025",
    # describe() output and percentage points, as above
    "Trial-to-paid conversion: 18.4% in Aug vs 16.9% in Jul",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # the row of another month holds $31,450; a month named in words does not pick the row
    "Team brought in $31,450 in June.",
    # orderings over rows of a month are not checked
    "Team was the largest plan in every month, and Basic the",
    # as above
    "Referral was the smallest channel in August.",
    # flagged only
    "There's no data for the Partner channel in August; the",
    # flagged only: a rule turned round ('include') is not contradicted
    "Revenue figures are in USD and include refunds.",
    # a rule with one word changed passes
    "Churn here is cancelled subscriptions divided by active",
    # a share of a sum is not worked out
    "Looking at August, Pro remains your biggest plan: it",
    # the June row is not picked by its month
    "It's worth noting that Team revenue didn't move between",
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
