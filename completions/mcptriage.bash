# bash completion for mcptriage. Installed to share/bash-completion/completions/mcptriage.
_mcptriage() {
  local cur prev
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local outcomes="TOOL_SUCCESS TOOL_ERROR RPC_SUCCESS INPUT_REQUIRED TASK_CREATED ACCEPTED HTTP_ERROR INVALID_HTTP_RESPONSE STREAM_INCOMPLETE MALFORMED_JSON INVALID_ENVELOPE JSONRPC_ERROR INVALID_TOOL_RESULT INVALID_RESULT NOT_CAPTURED"
  local opts="-h --help --version -f --format --color --id --method --request --body --session --protocol-version --status --expect --fail-on --manifest --report-junit --report-tap --report-html --report-otlp --export-har -q --quiet --progress --follow --max-input --max-body -j --jobs --no-redact"
  if [[ ${COMP_WORDS[1]} == explain && $COMP_CWORD -ge 2 ]]; then
    # `mcptriage explain NAME...`: reason codes, outcomes and skipped-record reasons, from --list.
    local names
    names=$("${COMP_WORDS[0]}" explain --list 2>/dev/null | sed -e 's/^ *//' -e 's/ .*//' | grep -vx skipped)
    mapfile -t COMPREPLY < <(compgen -W "--list --help $names" -- "$cur")
    return
  fi
  if [[ $COMP_CWORD -eq 1 && $cur != -* && explain == "$cur"* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "explain" -- "$cur"; compgen -f -- "$cur")
    return
  fi
  case $prev in
    -f|--format) mapfile -t COMPREPLY < <(compgen -W "table jsonl" -- "$cur"); return ;;
    --color) mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur"); return ;;
    --protocol-version) mapfile -t COMPREPLY < <(compgen -W "2025-03-26 2025-06-18 2025-11-25 2026-07-28" -- "$cur"); return ;;
    --method) mapfile -t COMPREPLY < <(compgen -W "initialize tools/list tools/call notifications/initialized ping resources/list resources/read prompts/list prompts/get server/discover tasks/get tasks/result" -- "$cur"); return ;;
    --expect|--fail-on)
      local head="" last=$cur
      if [[ $cur == *,* ]]; then head=${cur%,*},; last=${cur##*,}; fi
      mapfile -t COMPREPLY < <(compgen -P "$head" -W "$outcomes" -- "$last")
      return ;;
    --request|--body|--manifest|--report-junit|--report-tap|--report-html|--report-otlp|--export-har) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    --id|--status|--max-input|--max-body|-j|--jobs) return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -F _mcptriage mcptriage
