/**
 * The campus data feed under /v2: keys, data sets, usage, and the feed's formats.
 */
package dev.hexaflow.application.campus;
