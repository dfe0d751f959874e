/**
 * Limits on what an app's doors may cost: request rates, runs at once and token budgets, checked in memory on a
 * run's path and shared with the other instances of one store by a background exchange of counts.
 */
package dev.hexaflow.application.limits;
