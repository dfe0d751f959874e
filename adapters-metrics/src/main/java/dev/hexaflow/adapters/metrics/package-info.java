/**
 * Prometheus metrics with Micrometer: the runs, nodes and model tokens a {@code RunMonitor} sees, webhook
 * deliveries, campus feed calls, HTTP requests and the gauges the wiring hands in (writer backlog, runs in flight,
 * open streams, store health), scraped as Prometheus' text format. Labels carry only bounded values: app ids,
 * node types, model names from the imported DSLs, statuses and route templates; never a run id, a user or a path.
 */
package dev.hexaflow.adapters.metrics;
