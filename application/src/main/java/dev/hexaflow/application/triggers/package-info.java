/**
 * Triggers: the runs that start by themselves. A published workflow's trigger nodes are kept with their settings;
 * schedules fire once per tick on any number of instances (a claim in the store), and webhooks (and plugin triggers
 * bound to a webhook) start a run when their URL is called, the request checked as Dify checks it.
 */
package dev.hexaflow.application.triggers;
