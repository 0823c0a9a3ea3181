#!/bin/sh
# shards.sh BINARY - --jobs and --shard give the bytes of the serial run,
# for every command, and the shard scripts in scripts/ work as documented.
set -u
. "$(dirname "$0")/testlib.sh"

same() { # NAME FILE1 FILE2
	if cmp -s "$2" "$3" && [ -s "$2" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1"
	fi
}

check() { # NAME ARGS...
	name=$1
	shift
	"$bin" "$@" > "$tmp/serial" 2>/dev/null
	"$bin" "$@" --jobs 2 > "$tmp/jobs2" 2>/dev/null
	"$bin" "$@" --jobs 3 > "$tmp/jobs3" 2>/dev/null
	same "$name --jobs 2" "$tmp/serial" "$tmp/jobs2"
	same "$name --jobs 3" "$tmp/serial" "$tmp/jobs3"
	: > "$tmp/cat"
	for i in 1 2 3 4 5; do
		"$bin" "$@" --shard $i/5 >> "$tmp/cat" 2>/dev/null
	done
	same "$name --shard i/5" "$tmp/serial" "$tmp/cat"
}

for c in $("$bin" list | cut -d' ' -f1); do
	case $c in
	cluster) check cluster cluster --op all --msg 0:20000:7 --format csv ;;
	hypercube) check hypercube hypercube --dim 5:7 --vcs 2,4 \
		--rate 0:0.03:0.0001 --format csv ;;
	kbinomial) check kbinomial kbinomial --nodes 1:3000 --packets 1:7 \
		--format csv ;;
	collective) check collective collective --algorithm all,best \
		--ranks 2:40:3 --msg 1:1MiB:*8 --ppn 8 --sockets 2 --format csv ;;
	torus) check torus torus --k 4:40 --group 2:16 --format json ;;
	simulate) check simulate simulate --topology mesh,torus,hypercube \
		--k 3,4 --dims 2,3 --rate 0.005,0.02 --beta 0,0.1 \
		--warmup 100 --ci 0.1 --max-cycles 20000 --format csv ;;
	*) echo "FAIL: shards.sh has no sweep for command '$c'"
	   fail=$((fail + 1)) ;;
	esac
done

# The documented scripts: shard-sweep.sh, and the Slurm array run by hand.
"$bin" hypercube --rate 0:0.03:0.0002 --beta 0.005,0.02 --format csv \
	> "$tmp/whole"
MCASTLAT=$bin scripts/shard-sweep.sh 4 "$tmp/sharded" hypercube \
	--rate 0:0.03:0.0002 --beta 0.005,0.02 --format csv
same "scripts/shard-sweep.sh" "$tmp/whole" "$tmp/sharded"
"$bin" torus --model structural --k 16 --dims 3 --group 2:4096 \
	--placement random --seed 1 --format csv > "$tmp/whole"
(
	cd "$tmp" || exit 1
	for i in 1 2 3 4; do
		SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 MCASTLAT=$bin \
			sh "$OLDPWD/scripts/slurm-sweep.sbatch"
	done
	for i in 1 2 3 4; do cat part.$i.csv; done > slurm.csv
)
same "scripts/slurm-sweep.sbatch" "$tmp/whole" "$tmp/slurm.csv"

finish "shards"
