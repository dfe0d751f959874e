/**
 * This process among the others on one database: the instance lease (PostgreSQL) and the storage check behind
 * readiness.
 */
package dev.hexaflow.application.instances;
