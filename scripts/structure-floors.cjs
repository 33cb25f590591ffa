/**
 * The floors of src/server, read by the structure check (.dependency-cruiser.cjs) and its test.
 * Lowest first. A folder may import the folders of the floors before its own, never its own
 * floor's or a later one's. A new capability or door folder must be placed here: the structure
 * test fails for a folder that is not.
 */
const CAPABILITY_FLOORS = [
  ['audit', 'images', 'limits', 'mail', 'moderation', 'net', 'reference', 'storage'],
  ['access', 'auth', 'generation-object', 'observability'],
  ['engine', 'webhooks'],
  ['billing'],
  ['generations', 'keys', 'uploads'],
  ['creations', 'members', 'requestlog'],
  ['orgs', 'playground', 'usage'],
];
// The doors' own floors: the pieces every door shares sit in doors/ itself and import no door.
const DOOR_FLOORS = [['trpc'], ['mcp'], ['http']];
// The roles, lowest first: a role imports only the roles before it.
const ROLES = ['platform', 'capabilities', 'jobs', 'tools', 'doors', 'main'];

module.exports = { CAPABILITY_FLOORS, DOOR_FLOORS, ROLES };
