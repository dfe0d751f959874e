/**
 * What an app's published door may cost: request rates, runs at once, and token or price budgets over a day or a
 * month, per app, per key and per end user. Pure rules; who counts and where the counts are kept is the
 * application's.
 */
package dev.hexaflow.domain.limit;
