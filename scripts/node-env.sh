# Puts the project's Node 24 (.tools/, installed by .ci/run) first on PATH, and builds native modules against its headers.
# Use: `source scripts/node-env.sh` in a shell at the repository root.
_cloakroom_tools="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/.tools/node_modules/node"
if [ -x "$_cloakroom_tools/bin/node" ]; then
  export PATH="$_cloakroom_tools/bin:$PATH"
  for _cloakroom_dir in "$_cloakroom_tools"/node_modules/node-*/; do
    [ -d "$_cloakroom_dir/include/node" ] && export npm_config_nodedir="${_cloakroom_dir%/}"
  done
  unset _cloakroom_dir
fi
unset _cloakroom_tools
