"""Drives Loadplane's Prometheus API with the real prometheus-api-client (PyPI); prints what it read as JSON.

Usage: python prometheus-client-check.py <service url> <psk_ token> <base unix seconds> <machine id>
"""
import json
import sys
from datetime import datetime, timezone

from prometheus_api_client import PrometheusApiClientException, PrometheusConnect

url, token, base, machine = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
at = lambda seconds: datetime.fromtimestamp(seconds, tz=timezone.utc)
headers = {"Authorization": f"Bearer {token}"}
prom = PrometheusConnect(url=f"{url}/api/v1/prometheus", headers=headers, disable_ssl=True)
post = PrometheusConnect(url=f"{url}/api/v1/prometheus", headers=headers, disable_ssl=True, method="POST")

out = {
    "metrics": prom.all_metrics(),
    "machines": prom.get_label_values("machine"),
    "labels": prom.get_label_names(),
    "series": prom.get_series(at(base), at(base + 60), params={"match[]": f'loadplane_errors_total{{machine="{machine}"}}'}),
    "rate": prom.custom_query("sum(rate(loadplane_requests_total[30s]))", params={"time": base + 60}),
    "rate_post": post.custom_query("sum(rate(loadplane_requests_total[30s]))", params={"time": base + 60}),
    "p95_range": prom.custom_query_range(
        "histogram_quantile(0.95, sum(rate(loadplane_request_duration_seconds[10s])))", at(base + 10), at(base + 60), "10s"
    ),
    "raw": prom.get_metric_range_data("loadplane_requests_total", label_config={"machine": machine}, start_time=at(base + 50), end_time=at(base + 60)),
}
try:
    prom.custom_query("sum(rate(loadplane_requests_total[30s])")
    out["bad_query"] = "accepted"
except PrometheusApiClientException as error:
    out["bad_query"] = str(error)
print(json.dumps(out))
