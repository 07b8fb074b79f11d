#!/usr/bin/perl
# Which file of core/ calls which: a function (or its address) used in one
# C file and defined, not static, in another is an arrow from the first to the
# second; a header that includes another, an arrow too. make lint (lint.sh) fails on a loop of files calling each other and
# on a call up a layer; --dot prints the graph for Graphviz, one box a folder.
#   calls.pl [--dot|--folders] [LAYER...]   (run at the top of the tree;
#       LAYER: the folders of core/ bottom up, as lint.sh has them;
#       --folders: the graph of the folders, each arrow with its count of
#       file-to-file arrows)
# Read from the source, not the objects: comments and strings are left out,
# and a name counts as a use wherever it stands (a call, a table of pointers).
use strict;
use warnings;
use File::Find;

my $dot = @ARGV && $ARGV[0] =~ /^--(dot|folders)$/ ? $1 : '';
shift @ARGV if $dot;
my @layers = @ARGV ? @ARGV : qw(hbatest base measure plan store import report run cmd);
my %rank;
@rank{@layers} = (1 .. @layers);

my (@files, @headers);
find({ wanted => sub { push @files, $File::Find::name if /\.c$/;
		       push @headers, $File::Find::name if /\.h$/ }, no_chdir => 1 }, 'core');
@files = sort @files;
@headers = sort @headers;

sub text_of {	# the file without comments, strings and character constants
	my ($f) = @_;
	open(my $fh, '<', $f) or die "calls.pl: cannot open '$f': $!\n";
	local $/;
	my $t = <$fh>;
	$t =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'}
	       { my $m = $&; $m =~ tr/\n//cd; $m }gse;
	return $t;
}

my (%text, %def);
for my $f (@files) {
	$text{$f} = text_of($f);
	# a definition: at the start of a line, not static, a name and '(' ... ')' then '{'
	while ($text{$f} =~ /^(?!static\b)(?:[A-Za-z_][\w \t\*]*?[\s\*])?([a-z_]\w*)\(([^;{]*?)\)\s*\{/mg) {
		my $name = $1;
		next if $name =~ /^(if|for|while|switch|return|sizeof)$/;
		$def{$name} //= $f;
	}
}

my %edge;	# "$from\t$to" => a name that makes it
for my $f (@files) {
	my %seen;
	# (a tag names a type, not a function of the same name: enum iom_col)
	(my $t = $text{$f}) =~ s/\b(?:enum|struct|union)\s+\w+//g;
	for my $w ($t =~ /\b([a-z_]\w*)\b/g) {
		next if $seen{$w}++;
		my $to = $def{$w};
		$edge{"$f\t$to"} //= $w if defined $to && $to ne $f;
	}
}

# a header's includes of other headers of core/ (an arrow as a call is)
for my $h (@headers) {
	for my $inc (text_of_includes($h)) {
		$edge{"$h\tcore/$inc"} //= '#include' if -f "core/$inc" && "core/$inc" ne $h;
	}
}

sub text_of_includes {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "calls.pl: cannot open '$f': $!\n";
	return map { /^\s*#\s*include\s+"([^"]+)"/ ? $1 : () } <$fh>;
}

sub layer_of { my ($f) = @_; $f =~ m{^core/([^/]+)/} ? $1 : '' }

if ($dot eq 'folders') {	# import/fio and the like: their own box
	my %n;
	for (keys %edge) {
		my ($a, $b) = map { m{^core/(.*)/[^/]+$} ? $1 : $_ } split /\t/;
		$n{"$a\t$b"}++ if $a ne $b;
	}
	# callers above, what they call below; import's formats in its box
	print "digraph layers {\n\trankdir=TB; node [shape=box, fontsize=11];\n";
	my %fmt = map { m{^(import/[^\t]+)} ? ($1 => 1) : () } map { split /\t/ } keys %n;
	print "\tsubgraph cluster_import { label=\"import\"; \"import\"; ",
	      join(' ', map { "\"$_\";" } sort keys %fmt), " }\n";
	for (sort keys %n) {
		my ($a, $b) = split /\t/;
		print "\t\"$a\" -> \"$b\" [label=\"$n{$_}\", fontsize=9];\n";
	}
	print "}\n";
	exit 0;
}
if ($dot) {
	print "digraph core {\n\trankdir=BT; node [shape=box, fontsize=10];\n";
	for my $l (@layers) {
		my @in = grep { layer_of($_) eq $l } @files;
		next unless @in;
		print "\tsubgraph \"cluster_$l\" { label=\"$l\";\n";
		print "\t\t\"$_\" [label=\"", s{^core/}{}r, "\"];\n" for @in;
		print "\t}\n";
	}
	for (sort keys %edge) {
		my ($a, $b) = split /\t/;
		print "\t\"$a\" -> \"$b\";\n";
	}
	print "}\n";
	exit 0;
}

my $bad = 0;
for (sort keys %edge) {	# a call up a layer
	my ($a, $b) = split /\t/;
	my ($ra, $rb) = ($rank{layer_of($a)} // 0, $rank{layer_of($b)} // 0);
	next unless $ra && $rb && $rb > $ra;
	next if $edge{$_} eq '#include';	# lint.sh's upward include says it
	print "$a:1: calls up a layer (", layer_of($a), " uses $edge{$_} of $b)\n";
	$bad = 1;
}

# loops: strongly connected components of more than one file (Tarjan)
my (%adj, %index, %low, %on, @stack, @sccs);
for (keys %edge) { my ($a, $b) = split /\t/; push @{$adj{$a}}, $b }
my $i = 0;
sub strong {
	my ($v) = @_;
	$index{$v} = $low{$v} = $i++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort @{$adj{$v} // []}) {
		if (!defined $index{$w}) {
			strong($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $index{$w} if $index{$w} < $low{$v};
		}
	}
	if ($low{$v} == $index{$v}) {
		my @c;
		my $w;
		do { $w = pop @stack; $on{$w} = 0; push @c, $w } while ($w ne $v);
		push @sccs, [sort @c] if @c > 1;
	}
}
for (@files, @headers) { strong($_) unless defined $index{$_} }
for my $c (sort { $a->[0] cmp $b->[0] } @sccs) {
	my %in = map { $_ => 1 } @$c;
	my @why = map { my ($a, $b) = split /\t/;
			$edge{$_} eq '#include' ? "$a includes $b" : "$a uses $edge{$_} of $b" }
		  grep { my ($a, $b) = split /\t/; $in{$a} && $in{$b} } sort keys %edge;
	print "$_:1: a loop of files calling each other (", join('; ', @why), ")\n" for @$c;
	$bad = 1;
}
exit $bad;
