/**
 * A plugin's migration as plain SQL: what a plugin built against the published kit uses for its own tables (it has no
 * ORM to subclass). The host applies them after core's, in order, each in one transaction, once per database.
 */
export interface SqlMigration {
  /** Unique and permanent: starts with the plugin's name and a dash (`my-plugin-0001-runs`); never edit a shipped one. */
  readonly name: string;
  /** PostgreSQL statements, run in order. Name only this plugin's tables (a foreign key to a core row is fine). */
  readonly statements: readonly string[];
}
