#!/usr/bin/env bash
# Takes docs/img/editor.png: Neovim (Debian's 0.7) under Xvfb, on a copy of
# examples/build-receipt with one type error, after `claimc lsp` published
# its diagnostics and answered a hover. Needs: xvfb xterm neovim imagemagick.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
cp -r examples/build-receipt "$work/proj"
sed -i 's/holds p.tag == tag_for(candidate, keyed(candidate))/holds p.tag == tag_for(candidate, candidate.tree)/' "$work/proj/main.claim"
line=$(grep -n 'let p = produced' "$work/proj/main.claim" | cut -d: -f1)
cat > "$work/init.lua" <<LUA
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = "yes"
vim.cmd("syntax on")
vim.o.background = "dark"
vim.cmd("highlight NormalFloat guibg=#2d2d30 guifg=#e0e0e0")
vim.api.nvim_create_autocmd("BufEnter", { pattern = "*.claim", callback = function()
  local id = vim.lsp.start_client({ name = "claim", cmd = { "$PWD/target/release/claimc", "lsp" }, root_dir = "$work/proj" })
  vim.lsp.buf_attach_client(0, id)
  vim.cmd("set syntax=rust")
end })
vim.defer_fn(function()
  vim.api.nvim_win_set_cursor(0, { $line, 12 })
  vim.lsp.buf.hover()
end, 3000)
LUA
Xvfb :99 -screen 0 1500x900x24 >/dev/null 2>&1 &
xvfb=$!
sleep 1
DISPLAY=:99 xterm -geometry 160x46+0+0 -bg '#1e1e1e' -fg '#d4d4d4' -fa 'DejaVu Sans Mono' -fs 11 \
  -e nvim -u "$work/init.lua" +22 "$work/proj/main.claim" >/dev/null 2>&1 &
sleep 6
DISPLAY=:99 import -window root "$work/shot.png"
convert "$work/shot.png" -trim docs/img/editor.png
kill $xvfb
rm -rf "$work"
echo "wrote docs/img/editor.png"
