/**
 * Apps and their keys: import a Dify DSL, publish a version, list and describe apps, export the DSL, manage
 * keys, the web page's site and tokens, and authenticating a caller by key. It uses common only.
 */
package dev.hexaflow.application.apps;
