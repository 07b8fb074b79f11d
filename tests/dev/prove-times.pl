#!/usr/bin/env perl
# prove-times.pl [prove options] FILES...: prove, then each test file's wall
# time, slowest first, so that a slow file shows (`make check` runs the
# tests through it). Its exit status is prove's. HB_TIMES=N lists the N
# slowest (default 20; 0 lists all). (No CPU times: under prove -j the
# children's times a file would show include the other jobs'.)
use strict;
use warnings;
use App::Prove;
use TAP::Harness;

{
	package HbTimedHarness;
	use parent -norequire, 'TAP::Harness';

	my %took;

	sub new {
		my $self = shift->SUPER::new(@_);
		$self->callback(after_test => sub {
			my ($job, $parser) = @_;
			$took{$job->[0]} = $parser->end_time - $parser->start_time;
		});
		$self->callback(after_runtests => \&report);
		return $self;
	}

	sub report {
		my @files = sort { $took{$b} <=> $took{$a} || $a cmp $b } keys %took;
		return unless @files;
		my $n = $ENV{HB_TIMES} // 20;
		$n = @files if $n <= 0 || $n > @files;
		my $sum = 0;
		$sum += $_ for values %took;
		printf "Test files by wall time (the %d slowest of %d):\n", $n, scalar @files;
		printf "%8.1f s  %s\n", $took{$_}, $_ for @files[0 .. $n - 1];
		printf "%8.1f s  all %d files, summed (prove -j overlaps them)\n", $sum, scalar @files;
	}
}
$INC{'HbTimedHarness.pm'} = __FILE__;

my $app = App::Prove->new;
$app->process_args('--harness=HbTimedHarness', @ARGV);
exit($app->run ? 0 : 1);
