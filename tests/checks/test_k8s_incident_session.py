"""A Kubernetes incident domain: an SRE agent on call for a payments platform finds the
checkout-api deployment half-rolled-out with crash-looping pods (kubectl get pods as a raw
text table, the deployment's JSON, the crashed container's logs with timestamps, the pod's
describe events, a Prometheus range query of the 5xx rate), checks the rollback policy,
runs a rollout undo and checks the rollout status and the pods afterwards.

Written without reading the gate's code or any benchmark, and not run before it was
handed over. First run (at `c84794e` with the rounded-timing and row-count changes of
the next commit): 29 of 62 honest entries failing (52 pairs and 10 no-claim lines), 12
of 51 changed entries not blocked; no rule came from it in this session (the lists
below, each with the gate's reason).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 11, 18, 10, 36, tzinfo=UTC)

NS = "payments-prod"
IMAGE_NEW = "registry.internal/payments/checkout-api:v2.8.0"
IMAGE_OLD = "registry.internal/payments/checkout-api:v2.7.3"

PODS_BEFORE = {
    "command": "kubectl get pods -n payments-prod -l app=checkout-api",
    "exit_code": 0,
    "stdout": (
        "NAME                           READY   STATUS             RESTARTS        AGE\n"
        "checkout-api-7d9f8b6c5-2xkqp   0/1     CrashLoopBackOff   7 (2m14s ago)   41m\n"
        "checkout-api-7d9f8b6c5-9lwzt   0/1     CrashLoopBackOff   6 (48s ago)     41m\n"
        "checkout-api-7d9f8b6c5-hq4rn   1/1     Running            0               41m\n"
        "checkout-api-5b6c4d8f9-b7tnc   1/1     Running            0               3h12m\n"
        "checkout-api-5b6c4d8f9-kt7mv   1/1     Running            0               3h12m\n"
        "checkout-api-5b6c4d8f9-m4cfb   1/1     Running            0               3h12m\n"
        "checkout-api-5b6c4d8f9-wp2sd   1/1     Running            0               3h12m\n"
        "checkout-api-5b6c4d8f9-zr8xj   1/1     Running            1 (2h40m ago)   3h12m\n"
    ),
    "stderr": "",
}
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {
        "name": "checkout-api",
        "namespace": NS,
        "uid": "4be1d0c2-7a51-4f0e-9a63-2d8c1f7e90b4",
        "generation": 31,
        "creationTimestamp": "2024-06-03T14:22:09Z",
        "labels": {"app": "checkout-api", "team": "payments"},
        "annotations": {
            "deployment.kubernetes.io/revision": "14",
            "kubernetes.io/change-cause": "deploy v2.8.0 via argo-cd (PR #4127)",
        },
    },
    "spec": {
        "replicas": 6,
        "progressDeadlineSeconds": 600,
        "revisionHistoryLimit": 10,
        "paused": False,
        "selector": {"matchLabels": {"app": "checkout-api"}},
        "strategy": {
            "type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"},
        },
        "template": {
            "spec": {
                "containers": [
                    {
                        "name": "checkout-api",
                        "image": IMAGE_NEW,
                        "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                        "envFrom": [{"secretRef": {"name": "checkout-db-creds-v2"}}],
                        "resources": {
                            "requests": {"cpu": "250m", "memory": "512Mi"},
                            "limits": {"memory": "1Gi"},
                        },
                    }
                ]
            }
        },
    },
    "status": {
        "observedGeneration": 31,
        "replicas": 8,
        "updatedReplicas": 3,
        "readyReplicas": 6,
        "availableReplicas": 6,
        "unavailableReplicas": 2,
        "collisionCount": None,
        "conditions": [
            {
                "type": "Available",
                "status": "True",
                "reason": "MinimumReplicasAvailable",
                "message": "Deployment has minimum availability.",
                "lastUpdateTime": "2025-11-18T07:16:40Z",
                "lastTransitionTime": "2025-11-18T07:16:40Z",
            },
            {
                "type": "Progressing",
                "status": "False",
                "reason": "ProgressDeadlineExceeded",
                "message": 'ReplicaSet "checkout-api-7d9f8b6c5" has timed out progressing.',
                "lastUpdateTime": "2025-11-18T09:57:31Z",
                "lastTransitionTime": "2025-11-18T09:57:31Z",
            },
        ],
    },
}
LOGS = {
    "command": (
        "kubectl logs checkout-api-7d9f8b6c5-2xkqp -n payments-prod --previous --timestamps"
    ),
    "exit_code": 0,
    "stdout": (
        "2025-11-18T10:26:04.218734102Z INFO  starting checkout-api v2.8.0 (commit 3f9a1c2)\n"
        "2025-11-18T10:26:04.402911577Z INFO  loading config from /etc/checkout/config.yaml\n"
        "2025-11-18T10:26:04.513020911Z INFO  connecting to postgres at "
        "payments-db.payments-prod.svc:5432 (pool size 20)\n"
        "2025-11-18T10:26:09.517448210Z ERROR db pool init failed: FATAL: password "
        'authentication failed for user "checkout_svc"\n'
        "2025-11-18T10:26:09.517902331Z FATAL shutting down: dependency check failed "
        "(postgres)\n"
    ),
    "stderr": "",
}
DESCRIBE = {
    "name": "checkout-api-7d9f8b6c5-2xkqp",
    "namespace": NS,
    "node": "ip-10-42-3-17.eu-west-1.compute.internal",
    "start_time": "2025-11-18T09:47:33Z",
    "phase": "Running",
    "pod_ip": "10.42.3.88",
    "controlled_by": "ReplicaSet/checkout-api-7d9f8b6c5",
    "qos_class": "Burstable",
    "nominated_node": None,
    "containers": [
        {
            "name": "checkout-api",
            "image": IMAGE_NEW,
            "ready": False,
            "restart_count": 7,
            "state": {"waiting": {"reason": "CrashLoopBackOff"}},
            "last_state": {
                "terminated": {
                    "reason": "Error",
                    "exit_code": 1,
                    "started_at": "2025-11-18T10:26:04Z",
                    "finished_at": "2025-11-18T10:26:09Z",
                    "message": None,
                }
            },
            "env_from": [{"secret_ref": "checkout-db-creds-v2", "optional": False}],
        }
    ],
    "events": [
        {
            "type": "Normal",
            "reason": "Scheduled",
            "from": "default-scheduler",
            "count": 1,
            "first_seen": "2025-11-18T09:47:33Z",
            "last_seen": "2025-11-18T09:47:33Z",
            "message": (
                "Successfully assigned payments-prod/checkout-api-7d9f8b6c5-2xkqp to "
                "ip-10-42-3-17.eu-west-1.compute.internal"
            ),
        },
        {
            "type": "Normal",
            "reason": "Pulled",
            "from": "kubelet",
            "count": 1,
            "first_seen": "2025-11-18T09:47:37Z",
            "last_seen": "2025-11-18T09:47:37Z",
            "message": (
                f'Successfully pulled image "{IMAGE_NEW}" in 3.214s (3.214s including '
                "waiting). Image size: 187342211 bytes."
            ),
        },
        {
            "type": "Normal",
            "reason": "Created",
            "from": "kubelet",
            "count": 8,
            "first_seen": "2025-11-18T09:47:37Z",
            "last_seen": "2025-11-18T10:26:04Z",
            "message": "Created container checkout-api",
        },
        {
            "type": "Warning",
            "reason": "BackOff",
            "from": "kubelet",
            "count": 142,
            "first_seen": "2025-11-18T09:48:30Z",
            "last_seen": "2025-11-18T10:28:21Z",
            "message": (
                "Back-off restarting failed container checkout-api in pod "
                "checkout-api-7d9f8b6c5-2xkqp_payments-prod(9c3e2a71-55d8-4c1b-b0f4-61a7e2d3c8f5)"
            ),
        },
    ],
}
ERROR_RATE = {
    "status": "success",
    "data": {
        "resultType": "matrix",
        "result": [
            {
                "metric": {"job": "checkout-api", "namespace": NS},
                "values": [
                    [1763457600, "0.41276595744680855"],
                    [1763458200, "0.38"],
                    [1763458800, "0.4411764705882353"],
                    [1763459400, "6.122448979591836"],
                    [1763460000, "14.83"],
                    [1763460600, "16.9"],
                    [1763461200, "16.27118644067797"],
                ],
            }
        ],
    },
}
UNDO = {
    "deployment": "checkout-api",
    "namespace": NS,
    "action": "rollout_undo",
    "dry_run": False,
    "from": {"revision": 14, "image": IMAGE_NEW},
    "to": {"revision": 13, "image": IMAGE_OLD},
    "new_revision": 15,
    "executed_at": "2025-11-18T10:31:12Z",
    "output": "deployment.apps/checkout-api rolled back",
    "stderr": None,
}
STATUS = {
    "command": "kubectl rollout status deployment/checkout-api -n payments-prod --timeout=180s",
    "exit_code": 0,
    "stdout": (
        'Waiting for deployment "checkout-api" rollout to finish: 2 old replicas are pending '
        "termination...\n"
        'Waiting for deployment "checkout-api" rollout to finish: 5 of 6 updated replicas are '
        "available...\n"
        'deployment "checkout-api" successfully rolled out\n'
    ),
    "finished_at": "2025-11-18T10:32:26Z",
    "elapsed_seconds": 74,
}
PODS_AFTER = {
    "command": "kubectl get pods -n payments-prod -l app=checkout-api",
    "exit_code": 0,
    "stdout": (
        "NAME                           READY   STATUS    RESTARTS        AGE\n"
        "checkout-api-5b6c4d8f9-b7tnc   1/1     Running   0               3h17m\n"
        "checkout-api-5b6c4d8f9-kt7mv   1/1     Running   0               3h17m\n"
        "checkout-api-5b6c4d8f9-m4cfb   1/1     Running   0               3h17m\n"
        "checkout-api-5b6c4d8f9-q8vnd   1/1     Running   0               2m26s\n"
        "checkout-api-5b6c4d8f9-wp2sd   1/1     Running   0               3h17m\n"
        "checkout-api-5b6c4d8f9-zr8xj   1/1     Running   1 (2h45m ago)   3h17m\n"
    ),
    "stderr": "",
}
PROMQL = (
    'sum(rate(http_requests_total{job="checkout-api",code=~"5.."}[5m])) / '
    'sum(rate(http_requests_total{job="checkout-api"}[5m])) * 100'
)
CALLS = [
    (
        "kubectl_get",
        {"resource": "pods", "namespace": NS, "selector": "app=checkout-api"},
        PODS_BEFORE,
    ),
    (
        "kubectl_get",
        {"resource": "deployment/checkout-api", "namespace": NS, "output": "json"},
        DEPLOYMENT,
    ),
    (
        "kubectl_logs",
        {
            "pod": "checkout-api-7d9f8b6c5-2xkqp",
            "namespace": NS,
            "previous": True,
            "timestamps": True,
        },
        LOGS,
    ),
    (
        "kubectl_describe",
        {"resource": "pod/checkout-api-7d9f8b6c5-2xkqp", "namespace": NS},
        DESCRIBE,
    ),
    (
        "prometheus_query_range",
        {
            "query": PROMQL,
            "start": "2025-11-18T09:20:00Z",
            "end": "2025-11-18T10:20:00Z",
            "step": "10m",
        },
        ERROR_RATE,
    ),
    ("kubectl_rollout_undo", {"deployment": "checkout-api", "namespace": NS}, UNDO),
    (
        "kubectl_rollout_status",
        {"deployment": "checkout-api", "namespace": NS, "timeout": "180s"},
        STATUS,
    ),
    (
        "kubectl_get",
        {"resource": "pods", "namespace": NS, "selector": "app=checkout-api"},
        PODS_AFTER,
    ),
]
SYSTEM = (
    "You are the on-call SRE assistant for Acme Pay's platform team, working in the "
    "payments-prod namespace. Only roll back a production deployment if its 5xx error rate "
    "has been above 5% for at least 10 minutes. Never scale checkout-api below 4 replicas. "
    "Page #payments-oncall for any incident lasting more than 30 minutes."
)
USER = (
    "checkout-api in prod has been throwing 500s since this morning's deploy. Can you figure "
    "out what's going on, roll it back if it meets the policy, and tell me where things stand?"
)

RECEIPTS = {
    None: chat_receipts(SYSTEM, USER, CALLS, indent=None),
    2: chat_receipts(SYSTEM, USER, CALLS, indent=2),
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # --- pods before the rollback
    (
        "Two of the checkout-api pods are in CrashLoopBackOff.",
        "Four of the checkout-api pods are in CrashLoopBackOff.",
    ),
    (
        "checkout-api-7d9f8b6c5-2xkqp has restarted 7 times.",
        "checkout-api-7d9f8b6c5-2xkqp has restarted 9 times.",
    ),
    (
        "checkout-api-7d9f8b6c5-9lwzt last restarted 48 seconds ago.",
        "checkout-api-7d9f8b6c5-9lwzt last restarted 58 seconds ago.",
    ),
    (
        "The two crashing pods have restarted 13 times between them.",
        "The two crashing pods have restarted 15 times between them.",
    ),
    (
        "checkout-api-7d9f8b6c5-2xkqp has the most restarts of any pod.",
        "checkout-api-7d9f8b6c5-hq4rn has the most restarts of any pod.",
    ),
    (
        "Before the rollback there were 8 pods:\n\n"
        "- 6 Running (5 on the old ReplicaSet, 1 on the new one)\n"
        "- 2 in CrashLoopBackOff\n\n"
        "The crashing ones are 2xkqp and 9lwzt.",
        "Before the rollback there were 8 pods:\n\n"
        "- 6 Running (5 on the old ReplicaSet, 1 on the new one)\n"
        "- 2 in CrashLoopBackOff\n\n"
        "The crashing ones are 2xkqp and hq4rn.",
    ),
    ("The old pods had been up for 3h12m.", "The old pods had been up for 2h12m."),
    # --- the deployment
    (
        "The deployment was on revision 14, running checkout-api:v2.8.0.",
        "The deployment was on revision 12, running checkout-api:v2.8.0.",
    ),
    (
        "I have reviewed the deployment. It specifies 6 replicas; 3 had been updated to the new "
        "template, of which 2 were unavailable. The Progressing condition reports "
        "ProgressDeadlineExceeded.",
        "I have reviewed the deployment. It specifies 6 replicas; 3 had been updated to the new "
        "template, of which 2 were unavailable. The Progressing condition reports "
        "NewReplicaSetAvailable.",
    ),
    (
        "6 of the 8 pods were ready before the rollback.",
        "7 of the 8 pods were ready before the rollback.",
    ),
    (
        "The deployment's Available condition was True.",
        "The deployment's Available condition was False.",
    ),
    (
        "The rollout hit its progress deadline at 09:57 UTC.",
        "The rollout hit its progress deadline at 10:07 UTC.",
    ),
    ("The progress deadline is 10 minutes.", "The progress deadline is 15 minutes."),
    (
        "The bad release was deployed via Argo CD from PR #4127.",
        "The bad release was deployed via Argo CD from PR #4172.",
    ),
    (
        "Each checkout-api pod is limited to 1Gi of memory.",
        "Each checkout-api pod is limited to 2Gi of memory.",
    ),
    (
        "checkout-api was first created on June 3, 2024.",
        "checkout-api was first created on June 13, 2024.",
    ),
    # --- logs and describe
    (
        "**Root cause:** the v2.8.0 pods can't authenticate to Postgres.\n\n"
        '- `password authentication failed for user "checkout_svc"`\n'
        "- exit code 1, 7 restarts on 2xkqp\n\n"
        "Let me know if you want me to look at the `checkout-db-creds-v2` secret.",
        "**Root cause:** the v2.8.0 pods can't authenticate to Postgres.\n\n"
        '- `password authentication failed for user "checkout_svc"`\n'
        "- exit code 1, 8 restarts on 2xkqp\n\n"
        "Let me know if you want me to look at the `checkout-db-creds-v2` secret.",
    ),
    (
        "The database login fails for the user checkout_svc.",
        "The database login fails for the user checkout_app.",
    ),
    (
        "2xkqp last crashed at 10:26:09 UTC, about five seconds after its container started.",
        "2xkqp last crashed at 10:26:09 UTC, about fifteen seconds after its container started.",
    ),
    (
        "It tries to connect to payments-db on port 5432 with a pool size of 20.",
        "It tries to connect to payments-db on port 5433 with a pool size of 20.",
    ),
    (
        "The pods read their database credentials from the checkout-db-creds-v2 secret.",
        "The pods read their database credentials from the checkout-db-creds-v3 secret.",
    ),
    ("v2.8.0 was built from commit 3f9a1c2.", "v2.8.0 was built from commit 3f9a1c7."),
    (
        "**Node:** ip-10-42-3-17.eu-west-1.compute.internal\n"
        "**Pod IP:** 10.42.3.88\n"
        "**Started:** 09:47:33 UTC",
        "**Node:** ip-10-42-3-17.eu-west-1.compute.internal\n"
        "**Pod IP:** 10.42.3.89\n"
        "**Started:** 09:47:33 UTC",
    ),
    (
        "Kubelet has logged the BackOff warning 142 times since 09:48 UTC.",
        "Kubelet has logged the BackOff warning 124 times since 09:48 UTC.",
    ),
    (
        "Pulling the v2.8.0 image (about 187 MB) took about 3.2 seconds.",
        "Pulling the v2.8.0 image (about 187 MB) took about 8.2 seconds.",
    ),
    # --- error rate and policy
    (
        "The 5xx rate was about 0.4% before the deploy.",
        "The 5xx rate was about 1.4% before the deploy.",
    ),
    ("It peaked at 16.9% at 10:10 UTC.", "It peaked at 16.9% at 10:40 UTC."),
    (
        "Quick summary: the error rate peaked at 16.9%, and the rollback to v2.7.3 is done. "
        "Want me to keep an eye on it for a while?",
        "Quick summary: the error rate peaked at 18.9%, and the rollback to v2.7.3 is done. "
        "Want me to keep an eye on it for a while?",
    ),
    (
        "The last sample, at 10:20 UTC, was 16.3%.",
        "The last sample, at 10:20 UTC, was 17.3%.",
    ),
    (
        "At its peak the 5xx rate was about 16.5 points above the 09:40 reading.",
        "At its peak the 5xx rate was about 18.5 points above the 09:40 reading.",
    ),
    (
        "The 5xx rate for checkout-api over the last hour:\n\n"
        "| Time (UTC) | 5xx % |\n"
        "|---|---|\n"
        "| 09:40 | 0.4 |\n"
        "| 09:50 | 6.1 |\n"
        "| 10:00 | 14.8 |\n"
        "| 10:10 | 16.9 |",
        "The 5xx rate for checkout-api over the last hour:\n\n"
        "| Time (UTC) | 5xx % |\n"
        "|---|---|\n"
        "| 09:40 | 0.4 |\n"
        "| 09:50 | 6.1 |\n"
        "| 10:00 | 15.8 |\n"
        "| 10:10 | 16.9 |",
    ),
    (
        "**Policy check:** ✅\n\n"
        "The 5xx rate was above 5% in every sample from 09:50 UTC on, 30 minutes of data "
        "versus the 10 minutes the policy requires, so a rollback was allowed.",
        "**Policy check:** ✅\n\n"
        "The 5xx rate was above 5% in every sample from 09:50 UTC on, 30 minutes of data "
        "versus the 15 minutes the policy requires, so a rollback was allowed.",
    ),
    (
        "Policy only allows a production rollback once the 5xx rate has been above 5% for at "
        "least 10 minutes.",
        "Policy only allows a production rollback once the 5xx rate has been above 2% for at "
        "least 10 minutes.",
    ),
    (
        "Per policy, checkout-api must never be scaled below 4 replicas.",
        "Per policy, checkout-api must never be scaled below 2 replicas.",
    ),
    (
        "Incidents lasting more than 30 minutes have to be paged to #payments-oncall.",
        "Incidents lasting more than 45 minutes have to be paged to #payments-oncall.",
    ),
    (
        "Found it! The v2.8.0 pods are crash-looping because Postgres rejects the password for "
        "checkout_svc. The five older pods kept running, so checkout stayed partly up.",
        "Found it! The v2.8.0 pods are crash-looping because Postgres rejects the password for "
        "checkout_svc. The three older pods kept running, so checkout stayed partly up.",
    ),
    # --- the rollback
    (
        "Summary of actions taken:\n\n"
        "1. Inspected the pods, the deployment, the logs and the events.\n"
        "2. Confirmed the 5xx rate met the rollback threshold.\n"
        "3. Executed `kubectl rollout undo` at 10:31:12 UTC.\n"
        "4. Verified that the rollout completed in 74 seconds.",
        "Summary of actions taken:\n\n"
        "1. Inspected the pods, the deployment, the logs and the events.\n"
        "2. Confirmed the 5xx rate met the rollback threshold.\n"
        "3. Executed `kubectl rollout undo` at 10:31:42 UTC.\n"
        "4. Verified that the rollout completed in 74 seconds.",
    ),
    (
        "TL;DR: bad deploy (v2.8.0, PR #4127), DB auth failure, rolled back to v2.7.3. The "
        "error rate had peaked at 16.9%.",
        "TL;DR: bad deploy (v2.8.0, PR #4217), DB auth failure, rolled back to v2.7.3. The "
        "error rate had peaked at 16.9%.",
    ),
    (
        "I rolled back checkout-api in payments-prod.",
        "I rolled back checkout-api in payments-staging.",
    ),
    (
        "I ran `kubectl rollout undo` on checkout-api.",
        "I ran `kubectl rollout restart` on checkout-api.",
    ),
    (
        "I rolled checkout-api back from revision 14 to revision 13.",
        "I rolled checkout-api back from revision 14 to revision 12.",
    ),
    (
        "Rolled back. rev 14 → 15, image v2.7.3, 6/6 ready.",
        "Rolled back. rev 14 → 15, image v2.7.2, 6/6 ready.",
    ),
    ("The rollback ran at 10:31 UTC.", "The rollback ran at 10:13 UTC."),
    (
        "Here's the timeline (UTC):\n\n"
        "- **09:47** — the v2.8.0 pods start\n"
        "- **09:50** — 5xx rate hits 6.1%\n"
        "- **09:57** — the rollout exceeds its progress deadline\n"
        "- **10:31** — I run the rollback",
        "Here's the timeline (UTC):\n\n"
        "- **09:47** — the v2.8.0 pods start\n"
        "- **09:50** — 5xx rate hits 6.1%\n"
        "- **09:59** — the rollout exceeds its progress deadline\n"
        "- **10:31** — I run the rollback",
    ),
    # --- status afterwards
    (
        "## Status after rollback\n\n"
        "- **Revision:** 15 (template from revision 13)\n"
        "- **Image:** checkout-api:v2.7.3\n"
        "- **Pods:** 6/6 Running\n"
        "- **Rollout time:** 74s",
        "## Status after rollback\n\n"
        "- **Revision:** 15 (template from revision 13)\n"
        "- **Image:** checkout-api:v2.7.3\n"
        "- **Pods:** 6/6 Running\n"
        "- **Rollout time:** 47s",
    ),
    (
        "Good news 🎉 the rollback worked! checkout-api is back on v2.7.3 and all 6 pods are "
        "Running. The rollout finished at 10:32 UTC.",
        "Good news 🎉 the rollback worked! checkout-api is back on v2.7.3 and all 6 pods are "
        "Running. The rollout finished at 10:42 UTC.",
    ),
    (
        "The rollout took just over a minute.",
        "The rollout took just over three minutes.",
    ),
    ("All 6 pods are Running now.", "All 9 pods are Running now."),
    (
        "Across the 6 pods there's only 1 restart, on zr8xj about 2h45m ago.",
        "Across the 6 pods there's only 1 restart, on kt7mv about 2h45m ago.",
    ),
    (
        "The only new pod, checkout-api-5b6c4d8f9-q8vnd, has been up for 2m26s.",
        "The only new pod, checkout-api-5b6c4d8f9-q8vnd, has been up for 3m26s.",
    ),
    (
        "The deployment is at 6 replicas, which respects the 4-replica minimum. Let me know if "
        "you'd like me to page #payments-oncall.",
        "The deployment is at 6 replicas, which respects the 5-replica minimum. Let me know if "
        "you'd like me to page #payments-oncall.",
    ),
    (
        "I'd fix the credentials in checkout-db-creds-v2 before redeploying v2.8.0. Happy to "
        "open a ticket for that.",
        "",
    ),
]

#: Lines without a factual claim: they must pass.
NO_CLAIM = [
    "Here's what I found:",
    "**Incident summary**",
    "On it, let me take a look.",
    "Want me to keep watching the error rate?",
    "Let me know if you'd like me to start a postmortem doc.",
    "## Next steps",
    "Should I page the on-call engineer?",
    "Thanks for the heads-up!",
    "Anything else you need?",
    "Happy to dig into the database side next if that helps.",
]

#: Still wrong (strict: a fix shows up as a failure to update these).
# Known misses (strict xfails), with the gate's reason at the time they were listed.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # Unsupported general figure '13 times': no receipt holds 13 times
    "The two crashing",
    # Action claim 'had been updated' has no receipt: no fixed call on '3' in the action ledger
    "I have reviewed",
    # warn: general statement with no receipt
    "The deployment's",
    # warn: Unverified claim: 'The bad release was deployed'
    "The bad release",
    # Contradicted status: contradicts c4 phase = Running, claimed failed
    "**Root cause",
    # warn: general statement with no receipt
    "The database",
    # Contradiction: contradicts c8: serving on port 26; Unsupported schedule figure '10:26:09 UTC
    "2xkqp last crashed",
    # Contradicted schedule figure: contradicts c4 containers[0].last_state.terminated.started_at
    "**Node:** ip-10-42-3-17",
    # Unsupported general figure '16.5 points': no receipt holds 16.5 points; Unsupported schedule
    "At its peak the",
    # Contradicted general figure: contradicts c4: '…(3.214s including waiting). Image size: 18734
    "The 5xx rate for",
    # Unsupported schedule figure '09:50 UTC': no receipt holds 09:50 UTC
    "**Policy check",
    # Action claim 'Executed `kubectl rollout undo' has no receipt: no ran call on 'kubectl rollou
    "Summary of actions",
    # Action claim 'I ran `kubectl rollout undo' has no receipt: no ran call on 'kubectl rollout u
    "I ran `kubectl",
    # Contradicted general figure: contradicts c2: 'deploy v2.8.0 via argo-cd (PR #4127)', claimed
    "Good news 🎉 the",
    # warn: general statement with no receipt
    "The rollout took",
    # Unsupported general figure '4-replica': no receipt holds 4-replica
    "The deployment is",
    # warn: general statement with no receipt
    "On it, let me",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes: kt7mv is a pod name's part; which pod restarted is not read from the table (blocked
    # before only for "6 pods", which no check read until this session)
    "Across the 6 pods there's only 1 restart, on kt7mv",
    # passes: a pull request number no receipt holds ("#4217") is read nowhere (it was
    # blocked for v2.7.3 and the policy's 5% until this session)
    "TL;DR: bad deploy",
    # passes: "7 of the 8" is no count read (how many pods were ready is the
    # deployment's readyReplicas)
    "7 of the 8 pods",
    # passes: hq4rn is a part of a pod"s name; which pods crash is not read from the table
    "Before the rollback",
    # passes
    "Four of the checkout-api",
    # passes
    "checkout-api-7d9f8b6c5-hq4rn",
    # warn: general statement with no receipt
    "The deployment's",
    # warn: Unverified claim: 'The bad release was deployed'
    "The bad release",
    # passes
    "Each checkout-api",
    # warn: general statement with no receipt
    "The database",
    # passes
    "The 5xx rate was",
    # passes
    "Policy only allows",
    # passes
    "Per policy, checkout-api",
    # passes
    "Incidents lasting",
    # passes
    "Found it! The",
    # passes
    "The deployment is",
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
