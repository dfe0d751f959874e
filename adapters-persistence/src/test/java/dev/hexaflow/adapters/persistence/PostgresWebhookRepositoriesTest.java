package dev.hexaflow.adapters.persistence;

/**
 * The webhook repositories (deliveries and their claims, each app's settings), which have no in-memory twin and so
 * no contract class, held to the same tests on a real PostgreSQL 15 as on H2.
 */
class PostgresWebhookRepositoriesTest extends JdbiWebhookRepositoriesTest {

    @Override
    Database openDatabase() {
        return PostgresCluster.get().emptyDatabase();
    }
}
