#include "stepAverage.H"


Foam::stepAverage::stepAverage(const dictionary& dict)
:
    interval_(dict.lookupOrDefault<label>(keyword(), 1))
{
    if (interval_ < 1)
    {
        FatalIOErrorInFunction(dict)
            << "Invalid entry '" << keyword() << "' " << interval_
            << ": must be >= 1 (time steps per line of wallLoads.dat and"
            << " fluidForce.dat)" << exit(FatalIOError);
    }
}


Foam::word Foam::stepAverage::keyword()
{
    return "loadsInterval";
}


bool Foam::stepAverage::add(const Time& runTime, const scalar dt)
{
    ++steps_;
    span_ += dt;
    // (the last step: as Time::run, which ends the loop there)
    const bool last =
        runTime.value() >= runTime.endTime().value() - 0.5*runTime.deltaTValue();
    return steps_ >= interval_ || runTime.writeTime() || last;
}


Foam::scalar Foam::stepAverage::take()
{
    const scalar span = span_;
    steps_ = 0;
    span_ = 0;
    return span;
}


// ************************************************************************* //
