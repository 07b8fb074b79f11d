#!/usr/bin/perl
# Read tests/mutants.txt (its header says the format).
#   mutants.pl FILE          every mutant's file, find, into, tests and what,
#                            unescaped, each field followed by a NUL (mutate.sh)
#   mutants.pl --check FILE  each find string must occur exactly once in its
#                            file (make lint); prints FILE:LINE for each that
#                            does not, exits 1
use strict;
use warnings;

my $check = @ARGV && $ARGV[0] eq '--check' ? shift : 0;
my $path = shift or die "usage: mutants.pl [--check] FILE\n";
open(my $in, '<', $path) or die "mutants.pl: cannot open '$path': $!\n";

my (@mutants, %cur, $bad);
my @fields = qw(file find into tests mutant);
sub unescape {
	my $s = shift;
	$s =~ s/\\(.)/$1 eq 't' ? "\t" : $1 eq 'n' ? "\n" : $1/ge;
	return $s;
}
sub close_record {
	return unless %cur;
	for my $f (@fields) {
		next if defined $cur{$f};
		print STDERR "$path:$cur{line}: a mutant without '$f:'\n";
		$bad = 1;
	}
	push @mutants, {%cur};
	%cur = ();
}
while (my $l = <$in>) {
	chomp $l;
	next if $l =~ /^#/;
	if ($l =~ /^\s*$/) { close_record(); next; }
	if ($l =~ /^(mutant|file|find|into|tests): ?(.*)$/) {
		$cur{line} //= $.;
		if (defined $cur{$1}) {
			print STDERR "$path:$.: '$1:' twice in one mutant (a blank line ends a mutant)\n";
			$bad = 1;
		}
		$cur{$1} = $1 eq 'find' || $1 eq 'into' ? unescape($2) : $2;
	} else {
		print STDERR "$path:$.: not a 'key: value' line: $l\n";
		$bad = 1;
	}
}
close_record();
exit 1 if $bad;

if (!$check) {
	print join('', map { "$_\0" } @{$_}{@fields}) for @mutants;
	exit 0;
}
my $root = $ENV{MUTANTS_ROOT} // '.';	# the tree the files are in
my $n = 0;
for my $m (@mutants) {
	$n++;
	my $f = "$root/$m->{file}";
	my $text;
	if (open(my $h, '<', $f)) { local $/; $text = <$h>; }
	my $count = defined $text ? () = $text =~ /\Q$m->{find}\E/g : 0;
	next if $count == 1;
	print "$path:$m->{line}: mutant $n: its find string occurs $count times in $m->{file} " .
	      "(wanted once): update it\n";
	$bad = 1;
}
exit($bad ? 1 : 0);
